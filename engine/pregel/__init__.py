from engine.pregel.main import NodeBuilder, Pregel, SuperstepStepper

# langgraph.pregel exports only Pregel and NodeBuilder; SuperstepStepper is ours (step-by-step runs).
__all__ = ("Pregel", "NodeBuilder", "SuperstepStepper")
