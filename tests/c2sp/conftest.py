"""Fixtures of the C2SP tests: the audit tests' closed sample day."""

from tests.audit.conftest import reviewed_day, sample_day

__all__ = ["reviewed_day", "sample_day"]
