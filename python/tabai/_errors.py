"""Exceptions of the tabai package."""


class InvalidSignature(Exception):
    """A well-formed signature that does not verify."""
