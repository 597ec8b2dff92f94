"""Journeys: user stories through the real window (real keys and clicks, real library, real VLC), checked by
what a person sees."""

from helpers.gui import launch, sample  # noqa: F401 - fixtures for every journey
from helpers.journey_library import every_view  # noqa: F401
from helpers.screen_reader import accessible_app  # noqa: F401
