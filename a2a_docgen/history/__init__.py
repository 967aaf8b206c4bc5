"""Change history: what each agent's card changed commit by commit, classified by the differ.

``history.read.read_history(paths, base=...)`` reads the commits that changed the card files (one ``git log``
for every path, one ``git cat-file --batch`` for the blobs), follows files through renames and agents through
renames and moves the way ``diff`` pairs them (``review.match``), and classifies every step with
``review.diff_catalogs``. The result is plain data (``history.entries``): what the renderer shows on the agent
pages, the "What's new" pages and the Atom feeds. This package imports nothing here, so the renderer can read
``history.entries`` without loading the reader.
"""
