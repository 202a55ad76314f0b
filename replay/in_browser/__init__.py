"""The verifier as the verify page runs it in the reader's browser (Pyodide): the zip of the very Python the
server runs, its entry point, and the one stand-in the zip needs (orjson, a compiled library)."""
