#!/usr/bin/env python3
"""Fails when modules of a crate import each other in a circle.

Usage: check-module-cycles.py SRC_DIR (a crate's src/, whose root is lib.rs).

One node per module: a file, or an inline module in it (`mod tests { ... }`, a leaf that
nothing imports). An edge A -> B means that A names something *defined* in B: every path
(`use` trees and paths in code, from `crate`, `super`, `self`, a child module or a name a `use`
brought in) is followed through the `use` re-exports on its way to the file that defines it,
so a facade that only re-exports (`os/mod.rs`) is no hub. Both sides of a `cfg` count (the
union of every target's graph). Comments and `$crate` paths in macros are ignored, and so is
what `include!` brings in (a build script's output). A `#[path]` module is read from its file;
one outside SRC_DIR (another crate's generated declarations) or missing is a leaf whose item
names only are read. Through a glob import (`use x::*`), a name leads to the module that
defines it (an item seen by name there), not to the first glob's.
"""

import os
import pathlib
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
# An item's name where it is defined.
ITEM = r"\b(?:fn|const|static|struct|enum|union|type|trait|macro_rules!)\s+(" + IDENT + r")"
# `mod name;` with the attributes before it (`#[path = "..."]` among them).
MOD_DECL = r"((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?\bmod\s+(" + IDENT + r")\s*;"


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def split_top(s):
    """Splits a `use` group's inside at its top-level commas."""
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def expand_use(tree, prefix=()):
    """(binding name or '*', path segments) for each leaf of a `use` tree."""
    tree = tree.strip()
    m = re.match(r"^(.*?)::\{(.*)\}$", tree, flags=re.S)
    if m or tree.startswith("{"):
        head, inner = (m.group(1), m.group(2)) if m else ("", tree[1:-1])
        base = prefix + tuple(s for s in head.split("::") if s)
        out = []
        for part in split_top(inner):
            out += expand_use(part, base)
        return out
    alias = None
    m = re.match(r"^(.*?)\s+as\s+(" + IDENT + r")$", tree)
    if m:
        tree, alias = m.group(1), m.group(2)
    segs = prefix + tuple(s for s in tree.split("::") if s)
    if segs and segs[-1] == "self":
        segs = segs[:-1]
    if segs and segs[-1] == "*":
        return [("*", segs[:-1])]
    return [(alias or (segs[-1] if segs else ""), segs)]


class Crate:
    def __init__(self, src):
        self.src = pathlib.Path(src)
        self.files = {}  # module path tuple -> file
        self.children = {}  # module -> {name}
        self.uses = {}  # module -> {name: [absolute path tuple]}
        self.globs = {}  # module -> [absolute module tuple]
        self.defined = {}  # module -> {name of an item it defines}
        self.code = {}
        self.load((), self.src / "lib.rs")

    def load(self, module, file):
        text = strip_comments(file.read_text())
        self.files[module] = file
        self.code[module] = text
        self.children[module] = set()
        self.uses[module] = {}
        self.globs[module] = []
        self.scan(module, file, text)

    def leaf(self, module, file):
        self.files[module] = file
        self.code[module] = ""
        text = strip_comments(file.read_text()) if file.exists() else ""
        self.defined[module] = set(re.findall(ITEM, text))
        self.children[module], self.uses[module], self.globs[module] = set(), {}, []

    def scan(self, module, file, text):
        # Inline modules (`mod tests { ... }`): modules of their own, in the same file.
        while True:
            m = re.search(r"\bmod\s+(" + IDENT + r")\s*\{", text)
            if not m:
                break
            depth, end = 0, m.end() - 1
            for end in range(m.end() - 1, len(text)):
                depth += {"{": 1, "}": -1}.get(text[end], 0)
                if depth == 0:
                    break
            inner = module + (m.group(1),)
            self.children[module].add(m.group(1))
            self.files[inner] = file
            self.code[inner] = text[m.end() : end]
            self.children[inner], self.uses[inner], self.globs[inner] = set(), {}, []
            self.scan(inner, file, text[m.end() : end])
            text = text[: m.start()] + text[end + 1 :]
        self.code[module] = text
        self.defined[module] = set(re.findall(ITEM, text))
        for attrs, name in re.findall(MOD_DECL, text):
            self.children[module].add(name)
            path = re.search(r'\bpath\s*=\s*"([^"]+)"', attrs)
            if path:
                # `#[path]` outside an inline module: relative to the declaring file's folder.
                child = pathlib.Path(os.path.normpath(file.parent / path.group(1)))
            else:
                base = file.parent if file.name in ("lib.rs", "mod.rs") else file.with_suffix("")
                child = base / (name + ".rs")
                if not child.exists():
                    child = base / name / "mod.rs"
            if child.exists() and self.src.resolve() in child.resolve().parents:
                self.load(module + (name,), child)
            else:
                # Another crate's file (generated declarations) or none: a leaf, not read.
                self.leaf(module + (name,), child)
        for tree in re.findall(r"\buse\s+([^;]+);", text):
            for name, segs in expand_use(tree):
                path = self.absolute(module, segs)
                if path is None:
                    continue
                if name == "*":
                    self.globs[module].append(path)
                else:
                    self.uses[module].setdefault(name, []).append(path)

    def absolute(self, module, segs):
        """The crate-absolute form of a path written in `module`, None if external."""
        if not segs:
            return None
        head, rest = segs[0], segs[1:]
        if head == "crate":
            return tuple(rest)
        if head == "self":
            return module + tuple(rest)
        if head == "super":
            up = module
            while segs and segs[0] == "super":
                up, segs = up[:-1], segs[1:]
            return up + tuple(segs)
        if head in self.children.get(module, ()):
            return module + tuple(segs)
        if head in self.uses.get(module, {}):
            # A name a `use` brought in: resolved later, through that binding.
            return module + tuple(segs)
        return None

    def resolve(self, path, depth=0, strict=False):
        """The modules defining what `path` (crate-absolute) names. Through a glob (`strict`),
        only a module that defines the name or brings it in counts."""
        if depth > 30:
            return set()
        module = ()
        for i, seg in enumerate(path):
            if seg in self.children.get(module, ()):
                module = module + (seg,)
                continue
            targets = self.uses.get(module, {}).get(seg)
            if targets:
                out = set()
                for t in targets:
                    out |= self.resolve(t + tuple(path[i + 1 :]), depth + 1, strict)
                return out
            if seg in self.defined.get(module, ()):
                return {module}
            for g in self.globs.get(module, ()):
                found = self.resolve(g + tuple(path[i:]), depth + 1, True)
                if found:
                    return found
            # Not seen defined (a macro's item, a field): here, unless reached through a glob.
            return {module} if module in self.files and not strict else set()
        return {module}

    def node_of(self, module):
        """The module's file, with `::name` for an inline module."""
        while module not in self.files:
            module = module[:-1]
        file, inline = self.files[module], []
        while module and self.files.get(module[:-1]) == file:
            inline.insert(0, module[-1])
            module = module[:-1]
        name = os.path.relpath(file, self.src)
        return "::".join([name] + inline)

    def edges(self):
        out = {}
        for module, text in self.code.items():
            paths = []
            for tree in re.findall(r"\buse\s+([^;]+);", text):
                paths += [segs for name, segs in expand_use(tree) if name != "*"]
            code = re.sub(r"\buse\s+[^;]+;", "", text)
            for m in re.finditer(r"(?<![$\w:])(" + IDENT + r"(?:::" + IDENT + r")+)", code):
                paths.append(tuple(m.group(1).split("::")))
            here = self.node_of(module)
            for segs in paths:
                path = self.absolute(module, segs)
                if path is None:
                    continue
                for target in self.resolve(path):
                    there = self.node_of(target)
                    if there != here:
                        out.setdefault(here, set()).add(there)
        return out


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "stub-loader/src")
    crate = Crate(src)
    found = cycles(crate.edges())
    for comp in found:
        print(f"import circle of {len(comp)} modules: {', '.join(comp)}")
    if found:
        sys.exit(1)
    print(f"{src}: no import circle among {len(crate.files)} modules")


if __name__ == "__main__":
    main()
