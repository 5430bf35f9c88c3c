from studio.document.graph_document import FromCode, GraphDocument, edited_beyond_breakpoints

__all__ = ["FromCode", "GraphDocument", "edited_beyond_breakpoints"]
