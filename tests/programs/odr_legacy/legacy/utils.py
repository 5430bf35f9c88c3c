# Source: langchain-ai/open_deep_research, src/legacy/utils.py, as released in
#   open-deep-research 0.0.16 (https://pypi.org/project/open-deep-research/0.0.16/, its sdist).
# License: MIT, (c) LangChain (../LICENSE)
# Adapted: only the functions legacy/graph.py and legacy/multi_agent.py use are kept
#   (verbatim); the web searches, select_and_execute_search and the tavily_search and
#   duckduckgo_search tools (network APIs), keep their signatures and return a fixed source
#   text; the imports are those the kept functions need.
import datetime
from typing import Annotated, Any, Dict, List, Literal, Optional

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import InjectedToolArg, tool

from legacy.state import Section


def get_config_value(value):
    """
    Helper function to handle string, dict, and enum cases of configuration values
    """
    if isinstance(value, str):
        return value
    elif isinstance(value, dict):
        return value
    else:
        return value.value


def get_search_params(search_api: str, search_api_config: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """
    Filters the search_api_config dictionary to include only parameters accepted by the specified search API.

    Args:
        search_api (str): The search API identifier (e.g., "exa", "tavily").
        search_api_config (Optional[Dict[str, Any]]): The configuration dictionary for the search API.

    Returns:
        Dict[str, Any]: A dictionary of parameters to pass to the search function.
    """
    # Define accepted parameters for each search API
    SEARCH_API_PARAMS = {
        "exa": ["max_characters", "num_results", "include_domains", "exclude_domains", "subpages"],
        "tavily": ["max_results", "topic"],
        "perplexity": [],  # Perplexity accepts no additional parameters
        "arxiv": ["load_max_docs", "get_full_documents", "load_all_available_meta"],
        "pubmed": ["top_k_results", "email", "api_key", "doc_content_chars_max"],
        "linkup": ["depth"],
        "googlesearch": ["max_results"],
    }

    # Get the list of accepted parameters for the given search API
    accepted_params = SEARCH_API_PARAMS.get(search_api, [])

    # If no config provided, return an empty dict
    if not search_api_config:
        return {}

    # Filter the config to only include accepted parameters
    return {k: v for k, v in search_api_config.items() if k in accepted_params}


def format_sections(sections: list[Section]) -> str:
    """ Format a list of sections into a string """
    formatted_str = ""
    for idx, section in enumerate(sections, 1):
        formatted_str += f"""
{'='*60}
Section {idx}: {section.name}
{'='*60}
Description:
{section.description}
Requires Research: 
{section.research}

Content:
{section.content if section.content else '[Not yet written]'}

"""
    return formatted_str


def get_today_str() -> str:
    """Get current date in a human-readable format."""
    return datetime.datetime.now().strftime("%a %b %-d, %Y")


async def select_and_execute_search(search_api: str, query_list: list[str], params_to_pass: dict) -> str:
    """Offline: a fixed source text for the queries (was: the configured web search API)."""
    return "Content from sources:\n" + "\n".join(
        f"Source: {query}\nMost relevant content from source: LangGraph runs agents as graphs."
        for query in query_list
    )


TAVILY_SEARCH_DESCRIPTION = (
    "A search engine optimized for comprehensive, accurate, and trusted results. "
    "Useful for when you need to answer questions about current events."
)

@tool(description=TAVILY_SEARCH_DESCRIPTION)
async def tavily_search(
    queries: List[str],
    max_results: Annotated[int, InjectedToolArg] = 5,
    topic: Annotated[Literal["general", "news", "finance"], InjectedToolArg] = "general",
    config: RunnableConfig = None
) -> str:
    """Offline: a fixed source text for the queries (was: the Tavily search API)."""
    return await select_and_execute_search("tavily", queries, {})


@tool
async def duckduckgo_search(search_queries: List[str]):
    """Offline: a fixed source text for the queries (was: DuckDuckGo)."""
    return await select_and_execute_search("duckduckgo", search_queries, {})
