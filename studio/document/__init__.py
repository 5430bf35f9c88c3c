from studio.document.graph_document import GraphDocument

__all__ = ["GraphDocument"]
