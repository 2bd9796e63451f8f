"""A reader of KiCad's s-expression files: nested lists of strings, quoted strings unquoted."""

import re

_TOKEN = re.compile(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+')


def parse(text):
    stack = [[]]
    for tok in _TOKEN.finditer(text):
        t = tok.group(0)
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t[1:-1].replace('\\"', '"') if t.startswith('"') else t)
    return stack[0][0]


def items(node, head):
    """The child lists of node whose first word is head."""
    return [x for x in node if isinstance(x, list) and x and x[0] == head]


def item(node, head):
    found = items(node, head)
    return found[0] if found else None
