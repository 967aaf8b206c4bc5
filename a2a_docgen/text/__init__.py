"""Text helpers every stage shares; the bottom layer, beside ``model.py``.

Nothing here imports a module of a2a-docgen above it (only ``model`` and ``limits``), so the validator, the
fetcher and the command line use these without loading the renderer, Jinja or httpx:

- ``unicode``: step 0 cleaning of card text, invisible and bidi characters found and marked;
- ``slug``: identity keys, deterministic slugs and anchors, plain file-name slugs;
- ``urls``: which URLs may be linked (``safe_url``), host validation;
- ``jsonio``: pretty-printed JSON and JSON files;
- ``plural``: ``3 errors``, ``1 warning``.
"""
