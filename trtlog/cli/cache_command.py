"""``trtlog cache``: the parsed logs kept for the query commands, where they are, clearing them."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from trtlog.cli.common import app
from trtlog.render import OutputFormat

cache_app = typer.Typer(
    no_args_is_help=False,
    invoke_without_command=True,
    rich_markup_mode=None,
)
app.add_typer(cache_app, name="cache")


@cache_app.callback()
def cache(
    context: typer.Context,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="table (default), json, csv or markdown.")
    ] = OutputFormat.table,
) -> None:
    """The parsed logs kept for the query commands.

    List them (the default), show where they are, clear them.

    Without a command: the parsed logs kept in the store (most recently used first), their size
    and the store's limit ($TRTLOG_CACHE_LIMIT). The store is trtlog's folder in the user's
    cache directory, or $TRTLOG_STORE.

    \b
    Example: trtlog cache clean
    """
    if context.invoked_subcommand is not None:
        return
    from trtlog.render.frames import render
    from trtlog.store.cache import kept_logs, store_dir

    root = store_dir()
    kept = kept_logs(root)
    if output_format is not OutputFormat.table:
        render(kept, output_format, sys.stdout, f"Parsed logs in {root}")
        return
    if len(kept):
        render(kept, output_format, sys.stdout, f"Parsed logs in {root}")
    total = int(kept["size_bytes"].sum())
    typer.echo(f"{len(kept)} logs, {_size(total)} of {_size(_limit())} in {root}", err=True)


@cache_app.command("dir")
def cache_dir() -> None:
    """Print the store's folder."""
    from trtlog.store.cache import store_dir

    typer.echo(str(store_dir()))


@cache_app.command("clean")
def cache_clean() -> None:
    """Remove every parsed log and every directory's current log."""
    from trtlog.store.cache import clear, store_dir

    root = store_dir()
    removed = clear(root)
    freed = sum(entry.size for entry in removed)
    typer.echo(f"removed {len(removed)} logs ({_size(freed)}) from {root}", err=True)


def _limit() -> int:
    from trtlog.cli.common import fail
    from trtlog.store.cache import CacheSettingError, size_limit

    try:
        return size_limit()
    except CacheSettingError as error:
        raise fail(str(error)) from None


def _size(size: int) -> str:
    """In the binary units that $TRTLOG_CACHE_LIMIT takes."""
    if size >= 1 << 30:
        return f"{size / (1 << 30):.1f} GiB"
    return f"{size / (1 << 20):.1f} MiB"
