#!/usr/bin/env python3
"""Fails when the folders of a Swift module use each other in a circle.

For each module under Sources/ whose files sit in sub-folders, a folder *uses* another when one
of its files names a type, protocol, type alias or free function declared in the other (a
declaration in the module's root folder belongs to no folder and is shared by all). The
folders and their uses make a graph; every strongly connected group of more than one folder is
a circle, printed with one use (file and name) per edge so it can be mended, and the script
exits 1.

Why a script and not a tool: SwiftPM forbids cycles between *modules* only; inside a module
nothing does, and swift-syntax based tools are not in the offline mirror. The scan is lexical
(comments and string literals are stripped first), which is enough for names that are unique
within a module — Swift style here gives each type its own name.

Usage: scripts/check-folder-cycles.py [Module ...]   (default: every module with sub-folders)
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|open|final|indirect|nonisolated|static)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias|func)\s+([A-Za-z_]\w*)",
    re.MULTILINE)
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")


def strip(source):
    """The source without comments and string literals (so a name in a doc comment is no use)."""
    source = re.sub(r'"""[\s\S]*?"""', '""', source)
    source = re.sub(r"/\*[\s\S]*?\*/", " ", source)
    source = re.sub(r"//[^\n]*", " ", source)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', source)


def folder_of(module_dir, path):
    parts = path.relative_to(module_dir).parts
    return parts[0] if len(parts) > 1 else None


def top_level_declarations(source):
    """Names declared at brace depth 0 (types, and free functions), skipping members."""
    names, depth, line_start = [], 0, 0
    for line in source.splitlines():
        if depth == 0:
            match = DECLARATION.match(line)
            if match:
                names.append(match.group(1))
        depth += line.count("{") - line.count("}")
        depth = max(depth, 0)
    return names


def graph(module_dir):
    files = sorted(p for p in module_dir.rglob("*.swift"))
    sources = {p: strip(p.read_text(encoding="utf-8", errors="replace")) for p in files}
    owner = {}
    for path, source in sources.items():
        folder = folder_of(module_dir, path)
        for name in top_level_declarations(source):
            # A function name declared in two folders is ambiguous: it belongs to neither.
            owner[name] = None if name in owner and owner[name] != folder else folder
    uses = defaultdict(dict)
    for path, source in sources.items():
        folder = folder_of(module_dir, path)
        if folder is None:
            continue
        for name in set(IDENTIFIER.findall(source)):
            other = owner.get(name)
            if other and other != folder and other not in uses[folder]:
                uses[folder][other] = (path.relative_to(module_dir.parent.parent), name)
    return uses


def strongly_connected(nodes, edges):
    """Tarjan's algorithm; returns the groups of more than one node."""
    index, low, stack, on_stack, groups, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for other in edges.get(node, {}):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return groups


def main(argv):
    modules = [ROOT / "Sources" / name for name in argv] or sorted(p for p in (ROOT / "Sources").iterdir() if p.is_dir())
    failed = False
    for module_dir in modules:
        if not any(p.is_dir() and any(p.rglob("*.swift")) for p in module_dir.iterdir()):
            continue
        uses = graph(module_dir)
        nodes = set(uses) | {o for targets in uses.values() for o in targets}
        for group in strongly_connected(nodes, uses):
            failed = True
            print(f"{module_dir.name}: folders in a circle: {', '.join(group)}")
            for folder in group:
                for other, (path, name) in sorted(uses[folder].items()):
                    if other in group:
                        print(f"  {folder} -> {other}: {path} uses {name}")
    if not failed:
        print("no folder circles in " + ", ".join(m.name for m in modules if m.is_dir()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
