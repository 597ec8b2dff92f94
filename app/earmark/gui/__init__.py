"""The PySide6 desktop interface."""
