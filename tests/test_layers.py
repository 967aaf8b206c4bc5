"""Layers import downward, and a command imports only what it uses: checked in fresh interpreters.

``sys.modules`` of a new process shows what an import or a whole command really loaded, including modules
imported inside functions, which reading the import lines would miss.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_docgen import cli

REPO = Path(__file__).resolve().parents[1]
CARDS = REPO / "tests" / "data" / "cards"

HEAVY = ("jinja2", "httpx", "markdown", "markdown_it", "mkdocs")
"""Third-party packages that cost tenths of a second to import; only build, diff, fetch and the plugin need them."""

BOTTOM = (
    "a2a_docgen.model",
    "a2a_docgen.limits",
    "a2a_docgen.errors",
    "a2a_docgen.collector",
    "a2a_docgen.protocol",
    "a2a_docgen.diagnostics",
    "a2a_docgen.files",
    "a2a_docgen.text",
    "a2a_docgen.lazy",
    "a2a_docgen.version",
)
"""The bottom layer: these import nothing of a2a-docgen but each other."""


def loaded_after(code: str, *argv: str) -> set[str]:
    """The modules loaded once ``code`` has run in a new interpreter (``argv`` in ``sys.argv[1:]``)."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)), file=sys.__stderr__)"
    result = subprocess.run(
        [sys.executable, "-c", script, *argv], capture_output=True, text=True, check=False, cwd=REPO
    )
    return set(json.loads(result.stderr.strip().splitlines()[-1]))


def run_cli(*argv: str) -> set[str]:
    return loaded_after("import sys\nfrom a2a_docgen.cli import main\nmain(sys.argv[1:])", *argv)


def packages(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


@pytest.mark.parametrize(
    "argv",
    [
        ("--help",),
        ("--version",),
        ("check", "--help"),
        ("check", str(CARDS / "minimal-v1.json")),
        ("check", "--format", "json", str(REPO / "tests" / "data" / "hostile")),
        ("check",),
    ],
    ids=" ".join,
)
def test_help_and_check_import_no_renderer_and_no_http_client(argv: tuple[str, ...]) -> None:
    loaded = run_cli(*argv)
    assert packages(loaded) & set(HEAVY) == set()
    assert not any(
        name.startswith(("a2a_docgen.render", "a2a_docgen.fetch", "a2a_docgen.site")) for name in loaded
    )


def test_a_command_module_is_imported_only_when_chosen() -> None:
    loaded = run_cli("check", str(CARDS / "minimal-v1.json"))
    assert {name for name in loaded if name.startswith("a2a_docgen.commands.")} == {
        "a2a_docgen.commands.check"
    }
    assert not any(name.startswith("a2a_docgen.commands.") for name in run_cli("--help"))


@pytest.mark.parametrize("name", cli.COMMANDS)
def test_the_static_help_table_is_each_command_s_own(name: str) -> None:
    module = __import__(cli.command_module(name), fromlist=["HELP"])
    assert cli.COMMANDS[name] == module.HELP


def test_the_command_is_the_first_argument_that_is_not_an_option() -> None:
    assert cli.chosen_command(["--version"]) is None
    assert cli.chosen_command(["-h", "check"]) == "check"
    assert cli.chosen_command(["check", "build"]) == "check"
    assert cli.chosen_command(["nonsense", "check"]) is None


def a2a_modules(code: str) -> set[str]:
    return {name for name in loaded_after(code) if name.startswith("a2a_docgen.")}


@pytest.mark.parametrize("module", BOTTOM)
def test_the_bottom_layer_imports_only_the_bottom_layer(module: str) -> None:
    above = {
        name
        for name in a2a_modules(f"import {module}")
        if not any(name == bottom or name.startswith(f"{bottom}.") for bottom in BOTTOM)
    }
    assert above == set()


@pytest.mark.parametrize(
    ("module", "never"),
    [
        ("a2a_docgen.load", ("a2a_docgen.validate", "a2a_docgen.catalog", "a2a_docgen.render")),
        ("a2a_docgen.validate", ("a2a_docgen.render", "a2a_docgen.catalog", "a2a_docgen.fetch")),
        ("a2a_docgen.catalog", ("a2a_docgen.render", "a2a_docgen.fetch", "a2a_docgen.review")),
        (
            "a2a_docgen.quality",
            ("a2a_docgen.catalog", "a2a_docgen.render", "a2a_docgen.fetch", "a2a_docgen.review"),
        ),
        (
            "a2a_docgen.convert",
            ("a2a_docgen.render", "a2a_docgen.fetch", "a2a_docgen.review", "a2a_docgen.site"),
        ),
        ("a2a_docgen.fetch", ("a2a_docgen.render", "a2a_docgen.site", "a2a_docgen.review")),
        ("a2a_docgen.render.escape", ("a2a_docgen.load", "a2a_docgen.validate")),
        # The renderer reads the history as plain data; reading it (git, the differ) is a layer beside review.
        ("a2a_docgen.render", ("a2a_docgen.review", "a2a_docgen.history.read", "a2a_docgen.history.walk")),
        (
            "a2a_docgen.history.entries",
            ("a2a_docgen.load", "a2a_docgen.catalog", "a2a_docgen.review", "a2a_docgen.render"),
        ),
        ("a2a_docgen.history.read", ("a2a_docgen.render", "a2a_docgen.site", "a2a_docgen.fetch")),
        # The one module that runs git, just above the bottom: review and history both import it.
        (
            "a2a_docgen.git",
            (
                "a2a_docgen.load",
                "a2a_docgen.catalog",
                "a2a_docgen.review",
                "a2a_docgen.history",
                "a2a_docgen.render",
            ),
        ),
    ],
)
def test_layers_import_downward(module: str, never: tuple[str, ...]) -> None:
    loaded = a2a_modules(f"import {module}")
    assert module in loaded
    assert {name for name in loaded if name.startswith(never)} == set()


def test_importing_the_encoders_loads_neither_jinja2_nor_multiprocessing() -> None:
    """``render/__init__`` re-exports lazily: a leaf of the package (the encoders) costs that leaf alone."""
    loaded = loaded_after("import a2a_docgen.render.escape")
    assert packages(loaded) & {"jinja2", "multiprocessing", "concurrent"} == set()
    assert {name for name in loaded if name.startswith("a2a_docgen.render")} == {
        "a2a_docgen.render",
        "a2a_docgen.render.escape",
    }


def test_no_module_imports_the_package_root() -> None:
    """The root's face imports the layers above on demand; the version lives at the bottom (``version``)."""
    offenders = []
    for path in sorted((REPO / "a2a_docgen").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            from_root = isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "a2a_docgen"
            root = isinstance(node, ast.Import) and any(alias.name == "a2a_docgen" for alias in node.names)
            if from_root or root:
                offenders.append(f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 0)}")
    assert offenders == []


_STATEFUL = ("render", "html", "history", "site")
"""The packages where no module holds state of a build: what a build or ``mkdocs serve`` keeps is an object its
owner passes where it is used (``site/plugin/state.py``)."""
_KNOWN_STATE = {
    # Being reworked: the history read per HEAD and the stores, to be passed by the caller (the plugin's
    # ServeCaches, build --watch) as render's TemplateEnvs are.
    "a2a_docgen/history/read.py": {"_RESULTS", "_STORES"},
    # Set by a forked worker's first step, in the worker process only: its page function.
    "a2a_docgen/render/parallel.py": {"global _worker_render"},
    # Each model class's fields, by class: fixed by the code, nothing of a build.
    "a2a_docgen/render/pages.py": {"_TAINTED_FIELDS"},
}
_MUTATORS = frozenset(
    {
        "append",
        "extend",
        "add",
        "update",
        "clear",
        "pop",
        "popitem",
        "setdefault",
        "remove",
        "discard",
        "insert",
    }
)
_CONTAINERS = frozenset({"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "Counter"})


def _module_state(tree: ast.Module) -> set[str]:
    """The module-level containers a module changes, and the names it rebinds with ``global``."""
    containers: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            value, targets = node.value, node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            value, targets = node.value, [node.target]
        else:
            continue
        if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)) or (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _CONTAINERS
        ):
            containers |= {target.id for target in targets if isinstance(target, ast.Name)}
    found: set[str] = set()
    for walked in ast.walk(tree):
        if isinstance(walked, ast.Global):
            found |= {f"global {name}" for name in walked.names}
        elif isinstance(walked, (ast.Assign, ast.AugAssign, ast.Delete)):
            for target in walked.targets if isinstance(walked, (ast.Assign, ast.Delete)) else [walked.target]:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    name = target.value.id
                elif isinstance(walked, ast.AugAssign) and isinstance(target, ast.Name):
                    name = target.id
                else:
                    continue
                if name in containers:
                    found.add(name)
        elif (
            isinstance(walked, ast.Call)
            and isinstance(walked.func, ast.Attribute)
            and walked.func.attr in _MUTATORS
            and isinstance(walked.func.value, ast.Name)
            and walked.func.value.id in containers
        ):
            found.add(walked.func.value.id)
    return found


def test_no_module_holds_state_that_outlives_a_build() -> None:
    found = {
        str(path.relative_to(REPO)): state
        for package in _STATEFUL
        for path in sorted((REPO / "a2a_docgen" / package).rglob("*.py"))
        if (state := _module_state(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert found == _KNOWN_STATE


def test_the_module_state_check_finds_what_it_looks_for() -> None:
    source = (
        "A: dict[str, int] = {}\nB = []\nC = set()\nD = {}\nE = (1,)\n"
        "def f():\n    global G\n    A['x'] = 1\n    B.append(1)\n    C |= {1}\n    return D.get(1)\n"
    )
    assert _module_state(ast.parse(source)) == {"A", "B", "C", "global G"}


_PRIVATE_HOME = "a2a_docgen/site/plugin/mkdocs_private.py"
_INTERNALS_SET = frozenset({"render", "loader", "bytecode_cache", "add_entry_from_context"})
"""Attributes of MkDocs' and Jinja's objects that only ``mkdocs_private`` replaces."""


def _private_touches(tree: ast.Module) -> set[str]:
    """What a module touches of MkDocs' and Material's private names and internals: names imported from them
    that start with ``_``, attributes starting with ``_`` of anything but ``self`` and ``cls``, the attributes
    of ``_INTERNALS_SET`` assigned, and ``vars()``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("mkdocs", "material"):
            found |= {alias.name for alias in node.names if alias.name.startswith("_")}
        elif isinstance(node, ast.Attribute):
            owner = node.value.id if isinstance(node.value, ast.Name) else ""
            if node.attr.startswith("_") and not node.attr.startswith("__") and owner not in ("self", "cls"):
                found.add(f"{owner}.{node.attr}")
            if isinstance(node.ctx, ast.Store) and node.attr in _INTERNALS_SET:
                found.add(f"{owner}.{node.attr} =")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars":
            found.add("vars()")
    return found


def test_only_one_module_touches_mkdocs_private_names() -> None:
    touched = {
        str(path.relative_to(REPO)): touches
        for path in sorted((REPO / "a2a_docgen" / "site").rglob("*.py"))
        if (touches := _private_touches(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert set(touched) == {_PRIVATE_HOME}
    assert touched[_PRIVATE_HOME] >= {
        "_RelativePathTreeprocessor",
        "index._add_entry",
        "page.render =",
        "env.loader =",
        "env.bytecode_cache =",
        "index.add_entry_from_context =",
        "vars()",
    }
    for path in sorted((REPO / "a2a_docgen").rglob("*.py")):
        if "mkdocs_private" not in path.name:
            source = path.read_text(encoding="utf-8")
            assert "_RelativePathTreeprocessor" not in source
            assert "_TocToken" not in source
