"""Light and dark colours, the font size, and the few colours widgets use beyond the palette.

"system" follows the desktop's colour scheme (``QStyleHints.colorScheme``, also when it changes while Earmark
runs); light and dark set Fusion with palettes whose text keeps a WCAG contrast of at least 4.5:1.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

from earmark.core.records import record

Role = QPalette.ColorRole

LIGHT = {
    Role.Window: "#f3f3f3", Role.WindowText: "#1b1b1b", Role.Base: "#ffffff", Role.AlternateBase: "#f1f3f6",
    Role.Text: "#1b1b1b", Role.Button: "#e8e8e8", Role.ButtonText: "#1b1b1b", Role.BrightText: "#ffffff",
    Role.Highlight: "#2a62b8", Role.HighlightedText: "#ffffff", Role.ToolTipBase: "#fffbe6",
    Role.ToolTipText: "#1b1b1b", Role.PlaceholderText: "#666666", Role.Link: "#1a5fb4",
    Role.LinkVisited: "#6b3fa0", Role.Light: "#ffffff", Role.Midlight: "#f0f0f0", Role.Mid: "#b8b8b8",
    Role.Dark: "#9a9a9a", Role.Shadow: "#5a5a5a",
}
DARK = {
    Role.Window: "#202124", Role.WindowText: "#e8eaed", Role.Base: "#17181b", Role.AlternateBase: "#222428",
    Role.Text: "#e8eaed", Role.Button: "#2c2e33", Role.ButtonText: "#e8eaed", Role.BrightText: "#ffffff",
    Role.Highlight: "#2f64b5", Role.HighlightedText: "#ffffff", Role.ToolTipBase: "#2c2e33",
    Role.ToolTipText: "#e8eaed", Role.PlaceholderText: "#a3a6ab", Role.Link: "#8ab4f8",
    Role.LinkVisited: "#c58af9", Role.Light: "#4a4d53", Role.Midlight: "#3a3d42", Role.Mid: "#2a2c30",
    Role.Dark: "#111214", Role.Shadow: "#000000",
}
DISABLED_TEXT = {"light": "#8a8a8a", "dark": "#7b7e84"}


@record(frozen=True)
class Accents:
    """Colours beyond the palette, readable on the palette's Base and Window colours."""

    error: str
    tag: str
    muted: str  # secondary text (dates, sources) in rich text
    current_line: str  # the background of the transcript line being spoken
    highlight: str  # the background of an article's highlights in the notes
    focus: str  # the ring round the widget with the keyboard focus (3:1 against Window and Base at least)
    edge: str  # the edge of check boxes and radio buttons (3:1 against Window, Base and Button at least)


ACCENTS = {
    "light": Accents(error="#b00020", tag="#1f5f86", muted="#5f6368", current_line="#fff1b8",
                     highlight="#fdf3c4", focus="#1a5fb4", edge="#767676"),
    "dark": Accents(error="#ff8a80", tag="#7fbde6", muted="#a3a6ab", current_line="#4d3f0c",
                    highlight="#3d3514", focus="#8ab4f8", edge="#8b8f96"),
}


def palette(scheme: str) -> QPalette:
    """The palette of the "light" or "dark" theme."""
    colours = DARK if scheme == "dark" else LIGHT
    result = QPalette()
    for role, colour in colours.items():
        result.setColor(role, QColor(colour))
    for role in (Role.Text, Role.WindowText, Role.ButtonText):
        result.setColor(QPalette.ColorGroup.Disabled, role, QColor(DISABLED_TEXT[scheme]))
    return result


def indicator_palette(scheme: str) -> QPalette:
    """The palette of check boxes and radio buttons. Fusion draws their edge in their Window colour darkened
    (``darker(140).lighter(110)``): on the dark theme an empty box was nearly invisible (1.8:1), on the light one
    faint (2:1). They paint no background, so their Window is the colour that gives the edge the accent ``edge``."""
    result = palette(scheme)
    edge = QColor(ACCENTS[scheme].edge)
    result.setColor(Role.Window, QColor.fromHsv(edge.hsvHue(), edge.hsvSaturation(),
                                                min(255, round(edge.value() * 140 / 110))))
    return result


def is_dark(pal: QPalette | None = None) -> bool:
    """Whether ``pal`` (the application's, by default) has light text on a dark background."""
    pal = pal or QApplication.palette()
    return pal.color(Role.Window).lightnessF() < pal.color(Role.WindowText).lightnessF()


def accents() -> Accents:
    """The accent colours that go with the application's current palette."""
    return ACCENTS["dark" if is_dark() else "light"]


def contrast(foreground: QColor, background: QColor) -> float:
    """The WCAG 2 contrast ratio of two colours (1 to 21)."""

    def luminance(colour: QColor) -> float:
        def channel(value: float) -> float:
            return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())

    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def refresh_style_sheets() -> None:
    """Style sheets naming ``palette(…)`` colours keep the colours of the palette they were first applied with:
    set each again so that a theme chosen while Earmark runs reaches them too (the ? panel, the graph's legend)."""
    for widget in QApplication.allWidgets():
        sheet = widget.styleSheet()
        if "palette(" in sheet:
            widget.setStyleSheet("")
            widget.setStyleSheet(sheet)


class Appearance(QObject):
    """Applies the theme and font size to the application, and follows the system's colour scheme while
    the theme is "system". Remembers the style, palette and font Qt started with (the "system" look)."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._app = app
        style = app.style()
        self._system_style = style.name() if style is not None else "fusion"
        self._system_palette = QPalette(app.palette())
        self._system_font = QFont(app.font())
        self.theme = "system"
        self._look: tuple[bool, str] | None = None
        self.desktop_scheme = app.styleHints().colorScheme()
        app.styleHints().colorSchemeChanged.connect(self.follow_scheme)

    @classmethod
    def of(cls, app: QApplication) -> Appearance:
        """The application's Appearance (made on first use)."""
        existing = app.findChild(Appearance)
        return existing if isinstance(existing, Appearance) else cls(app)

    def scheme(self) -> str:
        """The scheme in force: "light" or "dark"."""
        if self.theme in ("light", "dark"):
            return self.theme
        if self.desktop_scheme == Qt.ColorScheme.Dark:
            return "dark"
        return "dark" if is_dark(self._system_palette) else "light"

    def apply(self, theme: str, font_size: int) -> None:
        """Use ``theme`` ("system", "light" or "dark") and ``font_size`` in points (0: the system's)."""
        self.theme = theme
        self._apply_colours()
        font = QFont(self._system_font)
        if font_size > 0:
            font.setPointSize(font_size)
        if font != self._app.font():
            self._app.setFont(font)

    def _apply_colours(self) -> None:
        scheme = self.scheme()
        native = self.theme == "system" and (scheme == "dark") == is_dark(self._system_palette)
        look = (native, scheme)
        if look == self._look:  # restyling repolishes every widget: only when something changes
            return
        self._look = look
        if native:  # the desktop's own style already draws this scheme
            current = self._app.style()
            if current is None or current.name().lower() != self._system_style.lower():
                self._app.setStyle(self._system_style)  # a new style repolishes every widget (~40 ms at start)
            self._app.setPalette(self._system_palette)
        else:
            self._app.setStyle("fusion")
            self._app.setPalette(palette(scheme))  # (which drops the palettes of classes below)
            for kind in ("QCheckBox", "QRadioButton"):  # a str at run time (the stubs say bytes, refused)
                self._app.setPalette(indicator_palette(scheme), kind)  # type: ignore[arg-type]
        refresh_style_sheets()

    def follow_scheme(self, scheme: Qt.ColorScheme) -> None:
        """The desktop switched to ``scheme``: repaint if the theme follows the system."""
        self.desktop_scheme = scheme
        if self.theme == "system":
            self._apply_colours()
