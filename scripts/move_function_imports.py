"""Move function-level imports to the module's import block (issue 31.7, ruff's PLC0415).

    .venv/bin/python scripts/move_function_imports.py [--check]

Deterministic and idempotent: it reads the project's packages (not the tests, the
benchmarks, the scripts, the migrations, nor an app's `apps.py`, whose `ready()` imports
wait for the app registry), and for each import inside a function, in the order of the
files' paths and lines:

- a line already marked `# noqa: PLC0415` is left alone;
- an import whose move would close an import cycle (the imported module reaches the
  importing one through module-level imports, those moved so far included) stays, marked
  `# noqa: PLC0415 (cycle: a -> b -> a)`;
- an import in a module the rulesets read without Django (reached at module level from
  `battles.rulesets`) stays when it would bring anything but the standard library or
  another such module, marked `# noqa: PLC0415 (pure: ...)`;
- an import whose names the module already binds otherwise stays, marked
  `# noqa: PLC0415 (name: ...)`;
- every other import is removed from the function and written after the module's last
  top-level import before its first definition (once: an import already there is not
  repeated).

Then run `ruff check --select I --fix` on the changed files for the import order only
(the script does it unless `--no-sort`). `--check` changes nothing and exits 1 when an
import would move.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from collections import deque
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("battles", "campaign", "casebook", "economy", "orders", "territories")
PURE_ROOT = "battles.rulesets"
STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files() -> list[Path]:
    files: list[Path] = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" in rel or path.name == "apps.py":
                continue
            files.append(path)
    return files


@dataclass
class Found:
    path: Path
    module: str
    node: ast.Import | ast.ImportFrom
    targets: list[str]  # the project modules it runs
    external: list[str]  # top-level names of the other packages it imports
    bound: list[str]  # names it binds


def absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def with_parents(name: str, modules: set[str]) -> list[str]:
    parts = name.split(".")
    return [p for p in (".".join(parts[:i]) for i in range(1, len(parts) + 1)) if p in modules]


def resolve(module: str, is_package: bool, node: ast.Import | ast.ImportFrom,
            modules: set[str]) -> tuple[list[str], list[str], list[str]]:
    targets: list[str] = []
    external: list[str] = []
    bound: list[str] = []
    if isinstance(node, ast.Import):
        for alias in node.names:
            bound.append(alias.asname or alias.name.split(".")[0])
            if alias.name.split(".")[0] in PACKAGES:
                targets += with_parents(alias.name, modules)
            else:
                external.append(alias.name.split(".")[0])
        return targets, external, bound
    source = absolute(module, is_package, node)
    for alias in node.names:
        bound.append(alias.asname or alias.name)
    if source.split(".")[0] in PACKAGES:
        targets += with_parents(source, modules)
        targets += [f"{source}.{a.name}" for a in node.names if f"{source}.{a.name}" in modules]
    else:
        external.append(source.split(".")[0])
    return targets, external, bound


def in_function(parents: list[ast.AST]) -> bool:
    return any(isinstance(p, ast.FunctionDef | ast.AsyncFunctionDef) for p in parents)


def type_checking(parents: list[ast.AST]) -> bool:
    return any(isinstance(p, ast.If) and "TYPE_CHECKING" in ast.unparse(p.test)
               for p in parents)


def walk(tree: ast.AST) -> list[tuple[ast.Import | ast.ImportFrom, list[ast.AST]]]:
    out: list[tuple[ast.Import | ast.ImportFrom, list[ast.AST]]] = []

    def visit(node: ast.AST, parents: list[ast.AST]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                out.append((child, parents))
            visit(child, [*parents, child])
    visit(tree, [])
    return out


def path_between(graph: dict[str, set[str]], start: str, goal: str) -> list[str] | None:
    """The shortest chain of module-level imports from `start` to `goal`, or None."""
    seen = {start: ""}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            chain = [here]
            while seen[chain[-1]]:
                chain.append(seen[chain[-1]])
            return chain[::-1]
        for nxt in sorted(graph.get(here, ())):
            if nxt not in seen:
                seen[nxt] = here
                queue.append(nxt)
    return None


def reached(graph: dict[str, set[str]], roots: list[str]) -> set[str]:
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        here = stack.pop()
        if here not in seen:
            seen.add(here)
            stack.extend(graph.get(here, ()))
    return seen


def module_bindings(tree: ast.Module) -> dict[str, str]:
    """Names bound at module level -> the source of what binds them."""
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                names[name] = ast.unparse(ast.Import(names=[alias])
                                          if isinstance(node, ast.Import)
                                          else ast.ImportFrom(module=node.module,
                                                              names=[alias],
                                                              level=node.level))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] = "def"
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                for sub in ast.walk(target):
                    if isinstance(sub, ast.Name):
                        names[sub.id] = "assignment"
    return names


def single(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> str:
    if isinstance(node, ast.Import):
        return ast.unparse(ast.Import(names=[alias]))
    return ast.unparse(ast.ImportFrom(module=node.module, names=[alias], level=node.level))


def main(argv: list[str]) -> int:
    check = "--check" in argv
    files = project_files()
    modules = {module_name(p) for p in files} | {
        module_name(p) for pkg in PACKAGES for p in (ROOT / pkg).rglob("apps.py")}
    trees: dict[Path, ast.Module] = {}
    graph: dict[str, set[str]] = {}
    found: list[Found] = []
    for path in files:
        source = path.read_text()
        tree = ast.parse(source)
        trees[path] = tree
        module = module_name(path)
        is_package = path.name == "__init__.py"
        edges = graph.setdefault(module, set())
        edges.update(p for p in with_parents(module, modules)[:-1])
        lines = source.splitlines()
        for node, parents in walk(tree):
            targets, external, bound = resolve(module, is_package, node, modules)
            if type_checking(parents):
                continue
            if not in_function(parents):
                edges.update(t for t in targets if t != module)
                continue
            if "noqa: PLC0415" in lines[node.lineno - 1]:
                continue
            found.append(Found(path, module, node, targets, external, bound))

    pure = reached(graph, sorted(m for m in modules if m.startswith(PURE_ROOT)))
    moves: dict[Path, list[Found]] = {}
    marks: dict[Path, list[tuple[Found, str]]] = {}
    for item in found:  # files in path order, nodes in source order
        module = item.module
        reason = ""
        for target in item.targets:
            if target == module:
                continue
            chain = path_between(graph, target, module)
            if chain is not None:
                reason = "cycle: " + " -> ".join([module, *chain])
                break
        if not reason and module in pure:
            impure = [e for e in item.external if e not in STDLIB]
            impure += [t for t in item.targets if t not in pure]
            if impure:
                reason = f"pure: {module} is read by the rulesets without Django"
        if not reason:
            bindings = module_bindings(trees[item.path])
            node = item.node
            for alias, name in zip(node.names, item.bound, strict=True):
                if name in bindings and bindings[name] != single(node, alias):
                    reason = f"name: {name} is bound otherwise in {module}"
                    break
        if reason:
            marks.setdefault(item.path, []).append((item, reason))
            continue
        graph[module].update(t for t in item.targets if t != module)
        moves.setdefault(item.path, []).append(item)

    changed = sorted(set(moves) | set(marks))
    for path in changed:
        rel = path.relative_to(ROOT)
        for item in moves.get(path, []):
            print(f"{rel}:{item.node.lineno}: moved {ast.unparse(item.node)}")
        for item, reason in marks.get(path, []):
            print(f"{rel}:{item.node.lineno}: kept ({reason})")
    if check:
        return 1 if moves else 0
    for path in changed:
        rewrite(path, trees[path], moves.get(path, []), marks.get(path, []))
    if changed and "--no-sort" not in argv:
        subprocess.run([str(ROOT / ".venv/bin/ruff"), "check", "--select", "I", "--fix",
                        "--quiet", *map(str, changed)], check=False)
    return 0


def rewrite(path: Path, tree: ast.Module, moves: list[Found],
            marks: list[tuple[Found, str]]) -> None:
    lines = path.read_text().splitlines(keepends=True)
    for item, reason in marks:
        i = item.node.lineno - 1
        text = lines[i].rstrip("\n")
        if "#" in text and not text.rstrip().endswith("("):
            lines[i] = f"{text.rstrip()}; noqa: PLC0415 ({reason})\n"
        else:
            lines[i] = f"{text}  # noqa: PLC0415 ({reason})\n"
    existing = {ast.unparse(n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)}
    new: list[str] = []
    for item in moves:
        statement = ast.unparse(item.node)
        if statement not in existing and statement not in new:
            new.append(statement)
    for item in sorted(moves, key=lambda f: f.node.lineno, reverse=True):
        node = item.node
        start, end = node.lineno - 1, (node.end_lineno or node.lineno) - 1
        indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
        lines[start:end + 1] = [f"{indent}pass  {PLACEHOLDER}\n"]
    text = drop_placeholders("".join(lines))
    if new:
        text = insert_imports(text, new)
    path.write_text(text)


PLACEHOLDER = "# moved-import-placeholder"


def drop_placeholders(text: str) -> str:
    """Remove the `pass` lines the moves left where the body has other statements; keep
    one (unmarked) where the body would be empty."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    drop: set[int] = set()
    unmark: set[int] = set()
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody", "handlers"):
            body = getattr(node, field, None)
            if not isinstance(body, list) or not body:
                continue
            marked = [s for s in body if isinstance(s, ast.Pass)
                      and PLACEHOLDER in lines[s.lineno - 1]]
            if not marked:
                continue
            if len(marked) == len(body):
                unmark.add(marked[0].lineno - 1)
                drop.update(s.lineno - 1 for s in marked[1:])
            else:
                drop.update(s.lineno - 1 for s in marked)
    out: list[str] = []
    dropped = False  # the last line looked at was a dropped placeholder (or its blank)
    for i, line in enumerate(lines):
        if i in drop:
            dropped = True
            continue
        if dropped and not line.strip() and (
                not out or not out[-1].strip() or out[-1].rstrip().endswith((":", '"""'))):
            continue  # the blank line that closed the moved imports
        dropped = False
        if i in unmark:
            line = line.replace(f"  {PLACEHOLDER}", "")
        out.append(line)
    return "".join(out)


def insert_imports(text: str, new: list[str]) -> str:
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    after = 0
    for node in tree.body:
        docstring = (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                     and after == 0)
        if isinstance(node, ast.Import | ast.ImportFrom) or docstring:
            after = node.end_lineno or node.lineno
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            break
    block = textwrap.dedent("\n".join(new)) + "\n"
    if after == 0:
        return block + "\n" + text
    return "".join(lines[:after]) + block + "".join(lines[after:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
