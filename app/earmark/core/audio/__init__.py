"""Audio analysis: decoding episodes (PyAV, loaded on first use) and the silent spans skipping silence uses."""
