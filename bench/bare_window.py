"""The floor bench/startup.py compares Earmark's start with: a bare QApplication and an empty 1280×800 window."""

import sys

from PySide6.QtWidgets import QApplication, QMainWindow

app = QApplication(sys.argv)
window = QMainWindow()
window.setWindowTitle("Bare")
window.resize(1280, 800)
window.show()
sys.exit(app.exec())
