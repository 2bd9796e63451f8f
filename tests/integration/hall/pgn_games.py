"""pgn_games.py - the games of a PGN text as the mock lichess and push_order.py read them."""
import re


def games_of(body):
    """The games of a PGN text: each starts at a tag line after movetext (or at the top)."""
    games, cur, in_moves = [], [], False
    for line in body.splitlines():
        if line.startswith("[") and in_moves:
            games.append("\n".join(cur))
            cur, in_moves = [], False
        if line and not line.startswith("["):
            in_moves = True
        cur.append(line)
    if any(cur):
        games.append("\n".join(cur))
    return games


def tags_of(game):
    return dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', game, re.M))


def moves_of(game):
    """The main line's moves, without comments, move numbers or the result."""
    text = "\n".join(l for l in game.splitlines() if not l.startswith("["))
    text = re.sub(r"\{[^}]*\}", " ", text)
    return [t for t in text.split() if not re.match(r"^(\d+\.+|\*|1-0|0-1|1/2-1/2)$", t)]
