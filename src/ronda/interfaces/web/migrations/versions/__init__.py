"""Ronda's migrations, one file per revision (Alembic reads them; this file only makes the folder a package)."""
