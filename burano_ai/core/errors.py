"""The error hierarchy: every bad input is a ValueError subclass whose message names the offender."""


class BuranoError(ValueError):
    """Base class for bad input to burano_ai (positions, moves, options)."""


class PositionError(BuranoError):
    """A position (JSON or constructed) is malformed or impossible."""


class IllegalMoveError(BuranoError):
    """A move text does not parse, or names a move that is not legal in the position."""


class OptionError(BuranoError):
    """A game, search or command-line option is out of range or unknown."""
