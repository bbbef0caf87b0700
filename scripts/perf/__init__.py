"""The build benchmark: synthetic transcripts and essays, measurements, budgets and the report."""
