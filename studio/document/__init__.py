from studio.document.graph_document import FromCode, GraphDocument

__all__ = ["FromCode", "GraphDocument"]
