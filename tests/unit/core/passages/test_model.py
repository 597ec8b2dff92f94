"""Which of the sentence model's exports is fetched: the one whose int8 kernels the CPU has."""

from __future__ import annotations

from earmark.core.passages.model import EXPORTS, export_for

XEON_2023 = "fpu sse2 avx avx2 avx512f avx512bw avx512_vnni amx_int8 amx_tile"  # as /proc/cpuinfo lists them
OLDER = "fpu sse2 avx avx2 fma"


def test_a_cpu_that_multiplies_bytes_by_vnni_gets_the_signed_export() -> None:
    assert export_for("x86_64", XEON_2023) == "onnx/model_qint8_avx512_vnni.onnx"
    assert export_for("AMD64", "avx2 avx_vnni") == EXPORTS["vnni"]


def test_any_other_x86_cpu_gets_the_avx2_export_and_arm_its_own() -> None:
    assert export_for("x86_64", OLDER) == "onnx/model_quint8_avx2.onnx"
    assert export_for("x86_64", "") == EXPORTS["avx2"]  # no /proc/cpuinfo (Windows, macOS): the safe one
    assert export_for("aarch64", "") == export_for("arm64", "") == "onnx/model_qint8_arm64.onnx"
