"""Transcripts made on this machine by a local speech-recognition engine (faster-whisper), primed with each
episode's own words. The engine is imported only in the process that transcribes, never at start-up."""
