"""The exception family of aggression-vision.

Library code raises these; only :mod:`aggression_vision.cli` turns them into
one-line messages and exit codes.
"""

from __future__ import annotations


class AggressionVisionError(Exception):
    """Base class of every error this package raises on purpose."""


class InvalidDocumentError(AggressionVisionError, ValueError):
    """A state document is malformed or breaks the rules of the format."""


class IllegalMoveError(AggressionVisionError, ValueError):
    """A move is not legal in the position it was tried in."""


class InvalidMoveError(AggressionVisionError, ValueError):
    """A move string could not be parsed."""


class ImageLoadError(AggressionVisionError):
    """A photo could not be opened or decoded."""


class MapNotFoundError(AggressionVisionError):
    """No map (closed countries) could be found in a photo."""


class SynthError(AggressionVisionError, RuntimeError):
    """The synthetic-photo generator could not make a sample (no valid map)."""
