"""Reading `chuhan match` PGNs, for the scripts that study its games: each game's tags and its
moves with their comments (`{SCORE/DEPTH TIMEs}`), and the score a comment reports."""
import re

TAG = re.compile(r'\[(\w+) "([^"]*)"\]')
MOVE = re.compile(r"([A-I]\d-[A-I]\d)\s*\{([^}]*)\}")


def games(path):
    """(tags, [(ICCS move, comment) in order]) for each game of the PGN file."""
    text = open(path, encoding="utf-8").read()
    for game in re.split(r"\n(?=\[Game )", text):
        yield dict(TAG.findall(game)), MOVE.findall(game[game.rfind("]") + 1 :])


def score(comment):
    """The score of a move comment in pawns (mates as ±100), None if unreadable."""
    s = comment.split("/")[0].strip()
    if "M" in s:
        return -100.0 if s.startswith("-") else 100.0
    try:
        return float(s)
    except ValueError:
        return None


def parity(tags, red):
    """The parity of the move indices Red (or Black) plays in this game, from its FEN's side
    to move."""
    first_red = tags.get("FEN", "x w").split()[1] != "b"
    return 0 if red == first_red else 1
