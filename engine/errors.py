"""Errors raised on bad user input, each naming what is wrong and where; and the cancellation of an analysis."""


def format_path(parts):
    """Render a path like ('blocks', 3, 'vertices') as 'blocks[3].vertices'."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


class ModelError(ValueError):
    """A model document or analysis request that cannot be analysed.

    Parameters
    ----------
    message : str
        What is wrong, in words a user can act on.
    path : str, optional
        Where: a field path such as ``blocks[12].faces[3]``.
    block : str, optional
        The id of the block concerned, when there is one.
    """

    def __init__(self, message, path=None, block=None):
        self.message = message
        self.path = path
        self.block = block
        where = path or ""
        if block is not None:
            where = f"{where} '{block}'" if where else f"block '{block}'"
        super().__init__(f"{where}: {message}" if where else message)

    def to_dict(self):
        """The error as the JSON object of DESIGN sec. 6."""
        return {"message": self.message, "path": self.path, "block": self.block}


class AnalysisCancelled(Exception):
    """An analysis stopped because its caller's ``cancel()`` returned True (e.g. a compute-time limit).

    Parameters
    ----------
    what : str
        What was stopped, e.g. ``"load_factor analysis"``.
    seconds : float
        How long it had run (s).
    done : str, optional
        How far it had got, e.g. ``"7 static solves done"``.
    """

    def __init__(self, what, seconds, done=""):
        self.what = what
        self.seconds = seconds
        super().__init__(f"{what} cancelled after {seconds:.3g} s" + (f", {done}" if done else ""))
