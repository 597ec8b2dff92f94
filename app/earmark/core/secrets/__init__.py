"""Passwords: the system keyring (Secret Service), the library file only as the user's explicit choice."""
