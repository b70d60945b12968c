#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns a program's --help text into a man page, so the page cannot drift from the help.

The help text is read as plain structure:
  * a line ending with ':' at column 0 starts a section ("commands:", "Options:", "exit codes:");
  * a line indented by two spaces starts an entry; the entry's name runs to the first gap of two or more spaces
    (then the rest of the line is the start of its description) or to the end of the line;
  * a line indented by more than two spaces continues the entry: its signature while the entry has no description
    yet and the line starts with an option or argument ('[', '-', '(' or an upper-case word), its description
    otherwise;
  * other lines are paragraphs.
The first "usage:" line becomes the SYNOPSIS. Usage:
  help_to_man.py --name NAME --summary TEXT --version V --description-file FILE --help-file FILE [--extra FILE]
                 -o OUT
--extra appends roff sections (FILES, SEE ALSO, ...) written by hand for what the help does not say.
"""
import argparse
import re
import sys


def roff_escape(text: str) -> str:
    text = text.replace("\\", "\\e").replace("-", "\\-")
    # A line must not start with a control character.
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def bold_options(text: str) -> str:
    """Option names in bold, as man pages set them."""
    return re.sub(r"(?<![\w\\])(\\-\\-?[A-Za-z][\w\\-]*)", r"\\fB\1\\fR", text)


def convert(name: str, summary: str, version: str, description: str, help_text: str, extra: str) -> str:
    out = [
        f'.TH {name.upper()} 1 "" "{name} {version}" "User Commands"',
        ".SH NAME",
        f"{roff_escape(name)} \\- {roff_escape(summary)}",
    ]
    lines = help_text.rstrip("\n").split("\n")
    body = []
    synopsis = None
    entry = None  # [signature parts, description parts]

    def flush():
        nonlocal entry
        if entry is None:
            return
        sig = " ".join(entry[0])
        body.append(".TP")
        body.append("\\fB" + roff_escape(sig).replace("\\fB", "") + "\\fR")
        body.append(bold_options(roff_escape(" ".join(entry[1]))) if entry[1] else "\\&")
        entry = None

    paragraph_open = False
    for raw in lines:
        line = raw.rstrip()
        was_paragraph, paragraph_open = paragraph_open, False
        if synopsis is None and line.lower().startswith("usage:"):
            synopsis = line.split(":", 1)[1].strip()
            continue
        if not line:
            flush()
            continue
        if re.match(r"^[A-Za-z][\w ]*:$", line):
            flush()
            body.append(".SH " + roff_escape(line[:-1].upper()))
            continue
        indent = len(line) - len(line.lstrip(" "))
        text = line.strip()
        if indent == 2:
            flush()
            parts = re.split(r"\s{2,}", text, maxsplit=1)
            entry = [[parts[0]], [parts[1]] if len(parts) > 1 else []]
            continue
        if indent > 2 and entry is not None:
            if not entry[1] and re.match(r"^[\[\-(]|^[A-Z]+\b", text):
                entry[0].append(text)
            else:
                entry[1].append(text)
            continue
        flush()
        # Consecutive plain lines are one paragraph.
        if body and body[-1] != ".PP" and was_paragraph:
            body[-1] += " " + bold_options(roff_escape(text))
        else:
            body.append(".PP")
            body.append(bold_options(roff_escape(text)))
        paragraph_open = True
        continue
    flush()

    if synopsis:
        prog, _, rest = synopsis.partition(" ")
        prog = prog.rsplit("/", 1)[-1]
        out += [".SH SYNOPSIS", f"\\fB{roff_escape(prog)}\\fR {roff_escape(rest)}"]
    out.append(".SH DESCRIPTION")
    for para in description.strip().split("\n\n"):
        out += [".PP", roff_escape(" ".join(para.split()))]
    out += body
    if extra:
        out.append(extra.rstrip("\n"))
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--name", required=True)
    ap.add_argument("--summary", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--description-file", required=True)
    ap.add_argument("--help-file", required=True)
    ap.add_argument("--extra")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    with open(a.help_file, encoding="utf-8") as f:
        help_text = f.read()
    if not help_text.strip():
        print(f"help_to_man.py: {a.help_file}: the help text is empty", file=sys.stderr)
        return 1
    with open(a.description_file, encoding="utf-8") as f:
        description = f.read()
    extra = ""
    if a.extra:
        with open(a.extra, encoding="utf-8") as f:
            extra = f.read()
    with open(a.output, "w", encoding="utf-8") as f:
        f.write(convert(a.name, a.summary, a.version, description, help_text, extra))
    return 0


if __name__ == "__main__":
    sys.exit(main())
