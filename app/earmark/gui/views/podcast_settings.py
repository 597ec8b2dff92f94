"""A podcast's own playback settings: its own speed, skipped intro and outro, skipping silence, voice boost,
auto-download."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QWidget,
)

from earmark.core.models import PodcastPrefs
from earmark.playback.player import MAX_RATE, MIN_RATE, RATE_STEP

SILENCE_CHOICES = {"off": "Off", "mild": "Mild: pauses of 1 s or more", "strong": "Strong: pauses of 0.5 s or more"}


class PodcastSettingsDialog(QDialog):
    """Edits a PodcastPrefs; ``prefs`` holds the result once accepted."""

    def __init__(self, title: str, prefs: PodcastPrefs, default_speed: float = 1.0,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("podcastSettings")
        self.setWindowTitle(f"Playback settings: {title}")
        self.prefs = prefs
        self.speed = QDoubleSpinBox()
        self.speed.setRange(0.0, MAX_RATE)
        self.speed.setSingleStep(RATE_STEP)
        self.speed.setDecimals(2)
        self.speed.setObjectName("podcastSpeed")
        self.speed.setSpecialValueText(f"The default ({default_speed:g}×)")
        self.speed.setSuffix("×")
        self.speed.setValue(prefs.speed or 0.0)
        self.intro = QSpinBox()
        self.intro.setRange(0, 600)
        self.intro.setSuffix(" s")
        self.intro.setValue(int(prefs.skip_intro))
        self.outro = QSpinBox()
        self.outro.setRange(0, 600)
        self.outro.setSuffix(" s")
        self.outro.setValue(int(prefs.skip_outro))
        self.silence = QComboBox()
        self.silence.setObjectName("skipSilence")
        for level, text in SILENCE_CHOICES.items():
            self.silence.addItem(text, level)
        self.silence.setCurrentIndex(max(0, self.silence.findData(prefs.skip_silence)))
        self.boost = QCheckBox("Louder, clearer voices")
        self.boost.setChecked(prefs.voice_boost)
        self.auto = QCheckBox("Download new episodes after each refresh")
        self.auto.setChecked(prefs.auto_download)
        form = QFormLayout(self)
        form.addRow("Speed", self.speed)
        note = QLabel(f"Its own speed, kept when you change the speed while it plays ([ and ]). The lowest value "
                      f"means the default speed of every podcast, {default_speed:g}× (Settings ▸ Playback).")
        note.setObjectName("podcastSpeedNote")
        note.setWordWrap(True)
        form.addRow("", note)
        form.addRow("Skip the first", self.intro)
        form.addRow("Skip the last", self.outro)
        form.addRow("Skip silence", self.silence)
        form.addRow("Voice boost", self.boost)
        form.addRow("Auto-download", self.auto)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def accept(self) -> None:
        """Keep the values entered (a speed below 0.5× means "no speed of its own")."""
        speed = self.speed.value()
        self.prefs = PodcastPrefs(speed if speed >= MIN_RATE else None, float(self.intro.value()),
                                  float(self.outro.value()), self.boost.isChecked(), self.auto.isChecked(),
                                  str(self.silence.currentData()))
        super().accept()
