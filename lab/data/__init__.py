"""The data a session shows: the content-addressed store, uploads on disk, data links, the results shared across sessions."""
