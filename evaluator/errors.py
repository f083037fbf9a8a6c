"""The exception family of the lab: every bad input raises a subclass of :class:`LabError`."""


class LabError(ValueError):
    """Bad input to the lab; the message is one line saying what is wrong and where."""


class CardError(LabError):
    """A card, a set of cards or a game name that cannot be used."""
