"""Dialogs of the main window."""
