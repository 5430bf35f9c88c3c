# Source: JonasWZW/langchain_v1, chain_learn/middleware_learn/custom_state_with_classr.py at
#   commit 20aaf61c17aab585b7f916064890502edff671f0
#   (https://github.com/JonasWZW/langchain_v1/blob/20aaf61c17aab585b7f916064890502edff671f0/chain_learn/middleware_learn/custom_state_with_classr.py),
#   a learner's class middleware with its own state schema: before_model (with
#   hook_config(can_jump_to=["end"])) ends the run past ten model calls, after_model counts them.
# License: none found (no license file among the repository's indexed files).
# Adapted: the model string "gpt-4o" replaced by a scripted model (it answers); the demo
#   invoke at the end dropped (the manifest makes the calls, one with the count past ten).
"""
Custom state schema  自定义状态模式
中间件可以使用自定义属性扩展代理的状态。这使得中间件能够：
    跟踪执行过程中的状态 ：维护在代理的整个执行生命周期中保持不变的计数器、标志或其他值
    在钩子之间共享数据 ：将信息从 before_model 传递到 after_model ，或在不同的中间件实例之间传递。
    实现横切关注点 ：在不修改核心代理逻辑的情况下，添加诸如速率限制、使用情况跟踪、用户上下文或审计日志记录等功能。
    做出条件决策 ：利用累积状态来确定是继续执行、跳转到不同的节点，还是动态地修改行为。
"""

from _offline import ScriptedChatModel
from langchain.agents import create_agent
from langchain.messages import HumanMessage
from langchain.agents.middleware import AgentState, AgentMiddleware, hook_config
from typing_extensions import NotRequired
from typing import Any


class CustomState(AgentState):
    model_call_count: NotRequired[int]
    user_id: NotRequired[str]


class CallCounterMiddleware(AgentMiddleware[CustomState]):
    state_schema = CustomState

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: CustomState, runtime) -> dict[str, Any] | None:
        count = state.get("model_call_count", 0)
        if count > 10:
            return {"jump_to": "end"}
        return None

    def after_model(self, state: CustomState, runtime) -> dict[str, Any] | None:
        return {"model_call_count": state.get("model_call_count", 0) + 1}


agent = create_agent(
    model=ScriptedChatModel(responses=["Hello! How can I help you today?"]),
    middleware=[CallCounterMiddleware()],
    tools=[],
)
