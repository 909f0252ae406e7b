"""pebsreport: read pebs-kernel serial logs (KTAP version 1, docs/output.md) and turn them
into summaries, JSON/CSV exports, plots and run-to-run comparisons (tools/pebs-report)."""

REPORT_FORMAT = "pebs-report/1"
