"""The PySide6 desktop interface."""

import PySide6.QtCore  # noqa: F401  # loaded first, so that its look at later imports is made cheap at once

from earmark.gui.feature_check import make_feature_check_cheap

make_feature_check_cheap()
