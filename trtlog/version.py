"""trtlog's version, in a module of its own: every layer may name it without importing the
package's entry points (``trtlog.load``), which sit above them all."""

__version__ = "0.1.0"
