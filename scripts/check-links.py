#!/usr/bin/env python3
"""Broken-link check of the docs, run by scripts/check-docs.sh after `mdbook build docs`.

- The built book (docs/book/*.html): every relative <a href> names a file of the book, and its
  #fragment an id in that file (what a reader's click finds, includes and all).
- README.md and the book's sources (docs/src/*.md), as GitHub shows them: every relative link
  names a file of the repository, and a #fragment into a Markdown file one of its headings'
  anchors (GitHub's and mdBook's rule: lower case, punctuation dropped, spaces to '-').

Prints each broken link and exits 1 if there is one.
"""
import html.parser
import os
import re
import sys
import urllib.parse

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BOOK = os.path.join(ROOT, "docs", "book")
SRC = os.path.join(ROOT, "docs", "src")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto: ...


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.hrefs = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        if tag == "a" and attrs.get("href"):
            self.hrefs.append(attrs["href"])


def check_book(errors):
    pages = {}
    for dirpath, _, files in os.walk(BOOK):
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(dirpath, name)
                page = Page()
                with open(path, encoding="utf-8") as f:
                    page.feed(f.read())
                pages[os.path.normpath(path)] = page
    if not pages:
        errors.append(f"{BOOK}: no HTML (run mdbook build docs first)")
    for path, page in sorted(pages.items()):
        if os.path.basename(path) == "404.html":
            continue  # its links resolve against the site root (<base href="/">)
        for href in page.hrefs:
            if EXTERNAL.match(href) or href.startswith("/"):
                continue
            target, _, fragment = href.partition("#")
            target = urllib.parse.unquote(target)
            dest = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target else path
            if os.path.isdir(dest):
                dest = os.path.join(dest, "index.html")
            where = os.path.relpath(path, ROOT)
            if dest not in pages and not os.path.isfile(dest):
                errors.append(f"{where}: link {href}: no such file")
            elif fragment and dest in pages and urllib.parse.unquote(fragment) not in pages[dest].ids:
                errors.append(f"{where}: link {href}: no id {fragment!r} in {os.path.relpath(dest, ROOT)}")


def slug(heading):
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def markdown_lines(path):
    """Lines outside fenced code blocks."""
    fence = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            if not fence:
                yield number, line


def anchors(path):
    seen, out = {}, set()
    for _, line in markdown_lines(path):
        m = re.match(r"^#{1,6} (.*)$", line.rstrip("\n"))
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def check_markdown(path, errors):
    where = os.path.relpath(path, ROOT)
    for number, line in markdown_lines(path):
        for href in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if EXTERNAL.match(href):
                continue
            target, _, fragment = href.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), urllib.parse.unquote(target))) if target else path
            if not os.path.exists(dest):
                errors.append(f"{where}:{number}: link {href}: no such file")
            elif fragment and dest.endswith(".md") and fragment not in anchors(dest):
                errors.append(f"{where}:{number}: link {href}: no heading with anchor {fragment!r} in {os.path.relpath(dest, ROOT)}")


def main():
    errors = []
    check_book(errors)
    sources = [os.path.join(ROOT, "README.md")]
    sources += sorted(os.path.join(SRC, n) for n in os.listdir(SRC) if n.endswith(".md"))
    for path in sources:
        check_markdown(path, errors)
    for e in errors:
        print(f"check-links: {e}", file=sys.stderr)
    if errors:
        print(f"check-links: {len(errors)} broken link(s)", file=sys.stderr)
        return 1
    print(f"check-links: book and {len(sources)} Markdown files, no broken link")
    return 0


if __name__ == "__main__":
    sys.exit(main())
