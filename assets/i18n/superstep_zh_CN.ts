<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name>app</name>
        <message>
            <source>Internal error: {name__}: {value}</source>
            <translation>内部错误：{name__}：{value}</translation>
        </message>
    </context>
    <context>
        <name>canvas.context_menu</name>
        <message>
            <source>Add node here</source>
            <translation>在此添加节点 (node)</translation>
        </message>
        <message>
            <source>Add note here</source>
            <translation>在此添加便签</translation>
        </message>
        <message>
            <source>Connect to</source>
            <translation>连接到</translation>
        </message>
        <message>
            <source>Add conditional route to</source>
            <translation>添加条件路由到</translation>
        </message>
        <message>
            <source>Open subgraph</source>
            <translation>打开子图 (subgraph)</translation>
        </message>
    </context>
    <context>
        <name>canvas.items.note_item</name>
        <message>
            <source>(empty note)</source>
            <translation>（空便签）</translation>
        </message>
    </context>
    <context>
        <name>canvas.looks</name>
        <message>
            <source>agent {agent} is missing</source>
            <translation>智能体 (agent) {agent} 不存在</translation>
        </message>
        <message>
            <source>pause for input</source>
            <translation>暂停等待输入</translation>
        </message>
    </context>
    <context>
        <name>chat.__init__</name>
        <message>
            <source>Chat</source>
            <translation>对话</translation>
        </message>
        <message>
            <source>&amp;Chat view</source>
            <translation>对话视图(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;Graph view</source>
            <translation>图视图(&amp;G)</translation>
        </message>
        <message>
            <source>Model &amp;providers…</source>
            <translation>模型提供方(&amp;P)…</translation>
        </message>
    </context>
    <context>
        <name>chat.cards</name>
        <message>
            <source> &lt;span style='color:#6b7280'&gt;· {esc}&lt;/span&gt;</source>
            <translation> &lt;span style='color:#6b7280'&gt;· {esc}&lt;/span&gt;</translation>
        </message>
        <message>
            <source>&lt;b style='color:{fg}'&gt;{who}&lt;/b&gt;{extra}</source>
            <translation>&lt;b style='color:{fg}'&gt;{who}&lt;/b&gt;{extra}</translation>
        </message>
        <message>
            <source>&lt;span style='color:#92400e'&gt;Tool call&lt;/span&gt; &lt;b&gt;{esc}&lt;/b&gt; &lt;span style='color:#6b7280'&gt;{esc2}&lt;/span&gt;</source>
            <translation>&lt;span style='color:#92400e'&gt;工具调用&lt;/span&gt; &lt;b&gt;{esc}&lt;/b&gt; &lt;span style='color:#6b7280'&gt;{esc2}&lt;/span&gt;</translation>
        </message>
        <message>
            <source>A message: the reason to reject, or the answer in place of the tool</source>
            <translation>一条消息：拒绝的理由，或代替工具给出的回答</translation>
        </message>
        <message>
            <source>Send edit</source>
            <translation>发送修改</translation>
        </message>
        <message>
            <source>Send reply</source>
            <translation>发送回复</translation>
        </message>
        <message>
            <source>Arguments are not JSON: {exc}</source>
            <translation>参数不是 JSON：{exc}</translation>
        </message>
    </context>
    <context>
        <name>chat.chat_panel</name>
        <message>
            <source>Message the graph on this thread (Ctrl+Enter sends)</source>
            <translation>在此线程 (thread) 上给图发消息（Ctrl+Enter 发送）</translation>
        </message>
        <message>
            <source>Send</source>
            <translation>发送</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Chat on {where}</source>
            <translation>在 {where} 上对话</translation>
        </message>
        <message>
            <source>This graph has no messages key: nothing to chat with</source>
            <translation>此图没有 messages 键：无法对话</translation>
        </message>
        <message>
            <source>streamed, inside the graph's node</source>
            <translation>流式输出，来自图的节点 (node) 内部</translation>
        </message>
        <message>
            <source>⏸ The graph asks: {value}</source>
            <translation>⏸ 图在询问：{value}</translation>
        </message>
        <message>
            <source>Your answer (text, or JSON)</source>
            <translation>你的回答（文本或 JSON）</translation>
        </message>
        <message>
            <source>Respond</source>
            <translation>回答</translation>
        </message>
    </context>
    <context>
        <name>chat.provider_dialog</name>
        <message>
            <source>Reply with OK.</source>
            <translation>Reply with OK.</translation>
        </message>
        <message>
            <source>Connected: {model} answered in {value:.1f}s</source>
            <translation>已连接：{model} 在 {value:.1f} 秒内作答</translation>
        </message>
        <message>
            <source>Model providers</source>
            <translation>模型提供方</translation>
        </message>
        <message>
            <source>Provider</source>
            <translation>提供方</translation>
        </message>
        <message>
            <source>API key</source>
            <translation>API 密钥</translation>
        </message>
        <message>
            <source>Base URL</source>
            <translation>基础 URL</translation>
        </message>
        <message>
            <source>Model to test</source>
            <translation>用于测试的模型</translation>
        </message>
        <message>
            <source>Test connection</source>
            <translation>测试连接</translation>
        </message>
        <message>
            <source>{value} is installed</source>
            <translation>已安装 {value}</translation>
        </message>
        <message>
            <source>This provider takes no API key</source>
            <translation>此提供方不需要 API 密钥</translation>
        </message>
        <message>
            <source>{env} is set in the environment: it is used, whatever is saved here</source>
            <translation>环境变量中已设置 {env}：无论这里保存了什么，都使用它</translation>
        </message>
        <message>
            <source>A key is saved in the OS keychain (type a new one to replace it, or clear to keep)</source>
            <translation>系统钥匙串中已保存密钥（输入新密钥以替换，留空则保留）</translation>
        </message>
        <message>
            <source>No key yet: saved in the OS keychain, never in a spec (or set {env})</source>
            <translation>尚无密钥：密钥保存在系统钥匙串中，绝不写入规格文件（或设置 {env}）</translation>
        </message>
        <message>
            <source>Testing…</source>
            <translation>正在测试…</translation>
        </message>
        <message>
            <source>✗ Not saved: {name__}: {exc}</source>
            <translation>✗ 未保存：{name__}：{exc}</translation>
        </message>
        <message>
            <source>Saved</source>
            <translation>已保存</translation>
        </message>
    </context>
    <context>
        <name>document.side_breakpoints</name>
        <message>
            <source>Cannot keep the breakpoints of {where} in {path}: {exc}</source>
            <translation>无法把 {where} 的断点保存到 {path}：{exc}</translation>
        </message>
    </context>
    <context>
        <name>drawing</name>
        <message>
            <source>Superstep graph</source>
            <translation>Superstep 图</translation>
        </message>
    </context>
    <context>
        <name>editor</name>
        <message>
            <source>This graph is drawn from {where}: edit it in the code (the studio reloads it when the file changes)</source>
            <translation>此图由 {where} 绘制：请在代码中编辑（文件变化时工作室会重新加载）</translation>
        </message>
        <message>
            <source>Add note</source>
            <translation>添加便签</translation>
        </message>
        <message>
            <source>drop middleware on an agent node</source>
            <translation>请把中间件 (middleware) 拖放到智能体 (agent) 节点上</translation>
        </message>
        <message>
            <source>Duplicate</source>
            <translation>复制一份</translation>
        </message>
        <message>
            <source>Cannot paste: {value}</source>
            <translation>无法粘贴：{value}</translation>
        </message>
        <message>
            <source>Paste</source>
            <translation>粘贴</translation>
        </message>
        <message>
            <source>layout failed: {error}</source>
            <translation>布局失败：{error}</translation>
        </message>
        <message>
            <source>{value} is not a name: letters, digits and _ only, not a digit first, at most 64</source>
            <translation>{value} 不是合法的名称：只能用字母、数字和 _，不能以数字开头，最多 64 个字符</translation>
        </message>
    </context>
    <context>
        <name>editor_commands</name>
        <message>
            <source>Select one node first</source>
            <translation>请先选择一个节点 (node)</translation>
        </message>
        <message>
            <source>Select a node or one of its edges first</source>
            <translation>请先选择一个节点 (node) 或它的一条边 (edge)</translation>
        </message>
        <message>
            <source>Select a conditional edge first</source>
            <translation>请先选择一条条件边 (conditional edge)</translation>
        </message>
        <message>
            <source>Add a node here, routed from {source}</source>
            <translation>在此添加节点，由 {source} 路由到它</translation>
        </message>
        <message>
            <source>Add a node here, after {source}</source>
            <translation>在此添加节点，接在 {source} 之后</translation>
        </message>
        <message>
            <source>Go to END</source>
            <translation>连到 END</translation>
        </message>
        <message>
            <source>Add {kind} node after {source}</source>
            <translation>在 {source} 之后添加 {kind} 节点</translation>
        </message>
        <message>
            <source>before</source>
            <translation>之前</translation>
        </message>
        <message>
            <source>after</source>
            <translation>之后</translation>
        </message>
        <message>
            <source>on error</source>
            <translation>出错时</translation>
        </message>
        <message>
            <source>any node</source>
            <translation>任意节点</translation>
        </message>
        <message>
            <source> (off)</source>
            <translation>（已停用）</translation>
        </message>
        <message>
            <source>{count} ({on} on)</source>
            <translation>{count} 个（{on} 个启用）</translation>
        </message>
        <message>
            <source>Breakpoints: {shown}</source>
            <translation>断点：{shown}</translation>
        </message>
        <message>
            <source>No breakpoints</source>
            <translation>无断点</translation>
        </message>
        <message>
            <source>Breakpoints (F9 before, Shift+F9 after the selected node; conditions, hit counts and more in the Breakpoints dock): runs pause there
</source>
            <translation>断点（F9 在所选节点之前，Shift+F9 在其之后；条件、命中次数等在“断点”停靠窗口中设置）：运行会在那里暂停
</translation>
        </message>
        <message>
            <source>Clear breakpoint {name}</source>
            <translation>清除断点 {name}</translation>
        </message>
        <message>
            <source>Select a node and press F9 (before) or Shift+F9 (after)</source>
            <translation>选择一个节点后按 F9（之前）或 Shift+F9（之后）</translation>
        </message>
        <message>
            <source>{node_id}: no such subgraph</source>
            <translation>{node_id}：没有这个子图 (subgraph)</translation>
        </message>
        <message>
            <source>{node_id} — inner graph {id} (read-only)</source>
            <translation>{node_id} — 内部图 {id}（只读）</translation>
        </message>
    </context>
    <context>
        <name>edits.edge_edits</name>
        <message>
            <source>edges run from START and into END, not the other way</source>
            <translation>边 (edge) 从 START 出发、进入 END，不能反向</translation>
        </message>
        <message>
            <source>connect START to a node, not straight to END</source>
            <translation>请把 START 连接到一个节点，而不是直接连到 END</translation>
        </message>
        <message>
            <source>START already leads to {target}</source>
            <translation>START 已经通向 {target}</translation>
        </message>
        <message>
            <source>{source} already leads to END</source>
            <translation>{source} 已经通向 END</translation>
        </message>
        <message>
            <source>{source} already leads to {target}</source>
            <translation>{source} 已经通向 {target}</translation>
        </message>
        <message>
            <source>{element_id}: only plain edges can be reconnected by dragging</source>
            <translation>{element_id}：只有普通边 (edge) 可以拖动重连</translation>
        </message>
        <message>
            <source>an edge cannot end at START</source>
            <translation>边 (edge) 不能以 START 为终点</translation>
        </message>
        <message>
            <source>a conditional edge starts at a node, not {shown}</source>
            <translation>条件边从节点出发，而不是从 {shown}</translation>
        </message>
        <message>
            <source>a route cannot lead to START</source>
            <translation>路由不能通向 START</translation>
        </message>
        <message>
            <source>Add conditional edge after {shown}</source>
            <translation>在 {shown} 之后添加条件边</translation>
        </message>
        <message>
            <source>{edge_id} sends to {shown}: change its target instead</source>
            <translation>{edge_id} 发送 (Send) 到 {shown}：请改为修改它的目标</translation>
        </message>
        <message>
            <source>{edge_id} already routes to {shown}</source>
            <translation>{edge_id} 已经路由到 {shown}</translation>
        </message>
        <message>
            <source>Add route {shown} → {shown2}</source>
            <translation>添加路由 {shown} → {shown2}</translation>
        </message>
        <message>
            <source>{edge_id} has no route {index}</source>
            <translation>{edge_id} 没有路由 {index}</translation>
        </message>
        <message>
            <source>that route already leads to {shown}</source>
            <translation>该路由已经通向 {shown}</translation>
        </message>
        <message>
            <source>Re-target route of {shown} to {shown2}</source>
            <translation>将 {shown} 的路由改指向 {shown2}</translation>
        </message>
        <message>
            <source>{shown} has no plain edges of its own to turn into a router</source>
            <translation>{shown} 没有可转换为路由器 (router) 的普通边</translation>
        </message>
        <message>
            <source>Convert edges of {shown} to a router</source>
            <translation>将 {shown} 的边转换为路由器 (router)</translation>
        </message>
        <message>
            <source>{edge_id} lists no routes: add its targets first</source>
            <translation>{edge_id} 没有列出路由：请先添加它的目标</translation>
        </message>
        <message>
            <source>Convert router of {shown} to plain edges</source>
            <translation>将 {shown} 的路由器转换为普通边</translation>
        </message>
        <message>
            <source>Change edge {id}</source>
            <translation>修改边 {id}</translation>
        </message>
    </context>
    <context>
        <name>edits.node_edits</name>
        <message>
            <source>Paste</source>
            <translation>粘贴</translation>
        </message>
    </context>
    <context>
        <name>edits.property_edits</name>
        <message>
            <source>{new!r} is already taken</source>
            <translation>{new!r} 已被占用</translation>
        </message>
        <message>
            <source>Change agent {id}</source>
            <translation>修改智能体 {id}</translation>
        </message>
        <message>
            <source>bad middleware order {order} for agent {agent_id}</source>
            <translation>智能体 {agent_id} 的中间件顺序 {order} 无效</translation>
        </message>
        <message>
            <source>Reorder middleware of {agent_id}</source>
            <translation>调整 {agent_id} 的中间件顺序</translation>
        </message>
        <message>
            <source>Edit state keys</source>
            <translation>编辑状态键</translation>
        </message>
        <message>
            <source>two state keys share a name</source>
            <translation>两个状态键重名</translation>
        </message>
        <message>
            <source>Change graph {field}</source>
            <translation>修改图的 {field}</translation>
        </message>
        <message>
            <source>Edit note {note_id}</source>
            <translation>编辑便签 {note_id}</translation>
        </message>
        <message>
            <source>a breakpoint is before or after a node, not {which!r}</source>
            <translation>断点只能在节点之前 (before) 或之后 (after)，不能是 {which!r}</translation>
        </message>
        <message>
            <source>breakpoints go on nodes: select one first</source>
            <translation>断点设在节点上：请先选择一个节点</translation>
        </message>
    </context>
    <context>
        <name>evals.dock</name>
        <message>
            <source>Dataset</source>
            <translation>数据集</translation>
        </message>
        <message>
            <source>Add example</source>
            <translation>添加样例</translation>
        </message>
        <message>
            <source>Add current run</source>
            <translation>添加当前运行</translation>
        </message>
        <message>
            <source>Run experiment</source>
            <translation>运行实验</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Compare</source>
            <translation>比较</translation>
        </message>
        <message>
            <source>Compare the two experiments picked in Compare (by default the last two run)</source>
            <translation>比较在“比较”中选中的两个实验（默认是最近运行的两个）</translation>
        </message>
        <message>
            <source>Live: the spec's models as they are (scripted ones answer offline). Recorded: each example's model and tool calls served from that experiment's run of the same example, no calls made</source>
            <translation>实时：按规格中的模型原样调用（脚本模型离线作答）。录制：每个样例的模型和工具调用由该实验对同一样例的运行记录提供，不发出任何调用</translation>
        </message>
        <message>
            <source>at once: </source>
            <translation>并发数：</translation>
        </message>
        <message>
            <source>Examples</source>
            <translation>样例</translation>
        </message>
        <message>
            <source>Results</source>
            <translation>结果</translation>
        </message>
        <message>
            <source>Edits to {name} not kept: </source>
            <translation>对 {name} 的修改未保留：</translation>
        </message>
        <message>
            <source>Import a dataset</source>
            <translation>导入数据集</translation>
        </message>
        <message>
            <source>Datasets (*.jsonl *.csv)</source>
            <translation>数据集 (*.jsonl *.csv)</translation>
        </message>
        <message>
            <source>Imported {name}: {len} example(s)</source>
            <translation>已导入 {name}：{len} 个样例</translation>
        </message>
        <message>
            <source>Thread {thread} has not run: run it first, then add it</source>
            <translation>线程 (thread) {thread} 尚未运行：请先运行，再添加</translation>
        </message>
        <message>
            <source>Thread {thread} was not started from the studio's input: its input is not known</source>
            <translation>线程 (thread) {thread} 不是从工作室的输入启动的：不知道它的输入</translation>
        </message>
        <message>
            <source>Save the graph first: its datasets are kept beside it</source>
            <translation>请先保存图：数据集保存在它旁边</translation>
        </message>
        <message>
            <source>Added thread {thread} to {name}: Save to keep it</source>
            <translation>已将线程 {thread} 添加到 {name}：保存后才会保留</translation>
        </message>
        <message>
            <source>No dataset: import one (a .jsonl or .csv file of examples)</source>
            <translation>没有数据集：请导入一个（样例的 .jsonl 或 .csv 文件）</translation>
        </message>
        <message>
            <source>Saved {written}</source>
            <translation>已保存 {written}</translation>
        </message>
        <message>
            <source>Experiments run graph specs; a graph from code runs in the debugger</source>
            <translation>实验运行的是图规格；来自代码的图请在调试器中运行</translation>
        </message>
        <message>
            <source>Running {len} example(s) of {name}…</source>
            <translation>正在运行 {name} 的 {len} 个样例…</translation>
        </message>
        <message>
            <source>Stopping after the examples already running…</source>
            <translation>正在运行的样例结束后停止…</translation>
        </message>
        <message>
            <source>The experiment did not run: {text}</source>
            <translation>实验没有运行：{text}</translation>
        </message>
        <message>
            <source>Experiment {id}{value}: {summary}</source>
            <translation>实验 {id}{value}：{summary}</translation>
        </message>
        <message>
            <source>Live models</source>
            <translation>实时模型</translation>
        </message>
        <message>
            <source>Recorded calls of {id}</source>
            <translation>{id} 的录制调用</translation>
        </message>
        <message>
            <source>Run two experiments (or pick two in Compare) to compare them</source>
            <translation>运行两个实验（或在“比较”中选两个）以比较它们</translation>
        </message>
        <message>
            <source>Datasets</source>
            <translation>数据集</translation>
        </message>
    </context>
    <context>
        <name>evals.scorer_consent</name>
        <message>
            <source>Run the scorers' Python code?</source>
            <translation>运行评分器的 Python 代码？</translation>
        </message>
        <message>
            <source>This dataset's scorers run Python code from:
{names}</source>
            <translation>此数据集的评分器会运行以下来源的 Python 代码：
{names}</translation>
        </message>
    </context>
    <context>
        <name>evals.tables</name>
        <message>
            <source>row {value}, {name}: must be a JSON object</source>
            <translation>第 {value} 行，{name}：必须是 JSON 对象</translation>
        </message>
        <message>
            <source>thread {thread}: double-click to open it</source>
            <translation>线程 (thread) {thread}：双击打开</translation>
        </message>
        <message>
            <source>the same output</source>
            <translation>输出相同</translation>
        </message>
        <message>
            <source>not run</source>
            <translation>未运行</translation>
        </message>
    </context>
    <context>
        <name>files</name>
        <message>
            <source>you chose not to save</source>
            <translation>你选择了不保存</translation>
        </message>
        <message>
            <source>left when another graph opened</source>
            <translation>打开另一个图时留下</translation>
        </message>
        <message>
            <source>an untitled graph</source>
            <translation>一个未命名的图</translation>
        </message>
        <message>
            <source>Unsaved work on {name} ({value}, {when}) can be recovered.</source>
            <translation>{name} 上未保存的工作（{value}，{when}）可以恢复。</translation>
        </message>
        <message>
            <source>Unsaved work on {name} (autosaved {when}) can be recovered.</source>
            <translation>{name} 上未保存的工作（自动保存于 {when}）可以恢复。</translation>
        </message>
    </context>
    <context>
        <name>headers</name>
        <message>
            <source>example</source>
            <translation>样例</translation>
        </message>
        <message>
            <source>passed</source>
            <translation>通过</translation>
        </message>
        <message>
            <source>latency ms</source>
            <translation>延迟 ms</translation>
        </message>
        <message>
            <source>model calls</source>
            <translation>模型调用</translation>
        </message>
        <message>
            <source>tokens</source>
            <translation>token 数</translation>
        </message>
        <message>
            <source>output / error</source>
            <translation>输出 / 错误</translation>
        </message>
        <message>
            <source>status</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>score changes</source>
            <translation>分数变化</translation>
        </message>
        <message>
            <source>before</source>
            <translation>之前</translation>
        </message>
        <message>
            <source>after</source>
            <translation>之后</translation>
        </message>
        <message>
            <source>Channel</source>
            <translation>通道 (channel)</translation>
        </message>
        <message>
            <source>Type</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>Value</source>
            <translation>值</translation>
        </message>
        <message>
            <source>Version</source>
            <translation>版本</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>步</translation>
        </message>
        <message>
            <source>Source</source>
            <translation>来源</translation>
        </message>
        <message>
            <source>Next</source>
            <translation>下一步</translation>
        </message>
        <message>
            <source>Branch</source>
            <translation>分支</translation>
        </message>
        <message>
            <source>Checkpoint</source>
            <translation>检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Created</source>
            <translation>创建时间</translation>
        </message>
        <message>
            <source>Last step</source>
            <translation>最后一步</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Superstep</source>
            <translation>超步 (superstep)</translation>
        </message>
        <message>
            <source>Detail</source>
            <translation>详情</translation>
        </message>
        <message>
            <source>On</source>
            <translation>启用</translation>
        </message>
        <message>
            <source>At</source>
            <translation>时机</translation>
        </message>
        <message>
            <source>Where</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>Condition</source>
            <translation>条件</translation>
        </message>
        <message>
            <source>Hit</source>
            <translation>命中</translation>
        </message>
    </context>
    <context>
        <name>language_menu</name>
        <message>
            <source>&amp;Language</source>
            <translation>语言(&amp;L)</translation>
        </message>
        <message>
            <source>Follow the system</source>
            <translation>跟随系统</translation>
        </message>
        <message>
            <source>Language: {name}</source>
            <translation>语言：{name}</translation>
        </message>
    </context>
    <context>
        <name>lecture.compiled_scene</name>
        <message>
            <source>triggers / always writes</source>
            <translation>触发 / 总是写入</translation>
        </message>
        <message>
            <source>router may write</source>
            <translation>路由器可能写入</translation>
        </message>
        <message>
            <source>Command goto may write</source>
            <translation>Command goto 可能写入</translation>
        </message>
        <message>
            <source>written in this run</source>
            <translation>本次运行写入</translation>
        </message>
        <message>
            <source>Send packet → its task</source>
            <translation>Send 数据包 → 它的任务</translation>
        </message>
        <message>
            <source>v —</source>
            <translation>v —</translation>
        </message>
        <message>
            <source>⑂ router</source>
            <translation>⑂ 路由器 (router)</translation>
        </message>
        <message>
            <source>v{short_version}</source>
            <translation>v{short_version}</translation>
        </message>
    </context>
    <context>
        <name>lecture.compiled_view</name>
        <message>
            <source>The compiled view needs the graph to compile: {blocked}</source>
            <translation>编译视图需要图能够编译：{blocked}</translation>
        </message>
        <message>
            <source>The graph does not compile: {name__}: {exc}</source>
            <translation>图无法编译：{name__}：{exc}</translation>
        </message>
    </context>
    <context>
        <name>lecture.course</name>
        <message>
            <source>Lesson 1 · Every state key is a channel</source>
            <translation>第 1 课 · 每个状态键都是一个通道 (channel)</translation>
        </message>
        <message>
            <source>compile() turns each state key into a channel whose type is its merge rule. topic has no reducer: a LastValue, it keeps the last write. notes has the add reducer: a BinaryOperatorAggregate, each write is added. Toggle the compiled view (F6) to see each mailbox's type.</source>
            <translation>compile() 把每个状态键变成一个通道 (channel)，通道的类型就是它的合并规则。topic 没有归约器 (reducer)：它是 LastValue，保留最后一次写入。notes 带有 add 归约器 (reducer)：它是 BinaryOperatorAggregate，每次写入都会累加进去。切换到编译视图（F6）可以看到每个信箱的类型。</translation>
        </message>
        <message>
            <source>Lesson 2 · Channel versions</source>
            <translation>第 2 课 · 通道 (channel) 版本</translation>
        </message>
        <message>
            <source>Every channel has a version. A barrier that writes a channel gives it a new one; a channel nobody wrote keeps its version. Watch count tick at each Barrier.</source>
            <translation>每个通道 (channel) 都有一个版本。屏障 (barrier) 写入某个通道时会给它一个新版本；没人写入的通道保持原版本。观察 count 在每个屏障 (Barrier) 处递增。</translation>
        </message>
        <message>
            <source>Lesson 3 · Why a node fires</source>
            <translation>第 3 课 · 节点 (node) 为什么会触发</translation>
        </message>
        <message>
            <source>Each node remembers the version of each trigger it last ran with (versions_seen). A Plan runs every node whose trigger is now newer than that. The loop's router writes branch:to:step again, its version moves past what step saw, so step runs again; when the router ends the run nothing moves and nothing runs.</source>
            <translation>每个节点 (node) 都记着它上次运行时各个触发通道的版本（versions_seen）。计划 (Plan) 阶段会运行所有触发通道比那时更新的节点。循环的路由器 (router) 再次写入 branch:to:step，它的版本超过了 step 见过的版本，于是 step 再次运行；当路由器结束运行时，没有版本变化，也就没有节点运行。</translation>
        </message>
        <message>
            <source>Lesson 4 · Edges are channel writes</source>
            <translation>第 4 课 · 边 (edge) 就是通道 (channel) 写入</translation>
        </message>
        <message>
            <source>A compiled graph has no edges. An edge to X is a write to the channel branch:to:X; a conditional edge is a router that writes the one it picks. In Execute, check's router puts a packet in branch:to:big; at the Barrier it ticks, and big wakes.</source>
            <translation>编译后的图没有边 (edge)。一条指向 X 的边就是对通道 (channel) branch:to:X 的一次写入；条件边是一个路由器 (router)，它写入自己选中的那个通道。在执行 (Execute) 阶段，check 的路由器把一个数据包放进 branch:to:big；到屏障 (Barrier) 时它的版本递增，big 被唤醒。</translation>
        </message>
        <message>
            <source>Lesson 5 · The write barrier</source>
            <translation>第 5 课 · 写屏障 (barrier)</translation>
        </message>
        <message>
            <source>Tasks of one superstep all read the same snapshot. left writes shared, but the write waits as a pending packet until the barrier: right, running beside it, still reads the old value. Only at the Barrier do the packets enter their channels.</source>
            <translation>同一个超步 (superstep) 中的任务都读取同一个快照。left 写入了 shared，但这次写入作为待处理的数据包一直等到屏障 (barrier)：与它并行运行的 right 读到的仍是旧值。只有到了屏障 (Barrier)，数据包才会进入各自的通道 (channel)。</translation>
        </message>
        <message>
            <source>Lesson 6 · A reducer merges parallel writes</source>
            <translation>第 6 课 · 归约器 (reducer) 合并并行写入</translation>
        </message>
        <message>
            <source>Three tasks write items in one superstep. Three packets wait beside the mailbox; at the Barrier the channel's reducer (add) folds them into one new value, and the version ticks once.</source>
            <translation>三个任务在同一个超步 (superstep) 中写入 items。三个数据包在信箱旁等待；到屏障 (Barrier) 时，通道 (channel) 的归约器 (reducer)（add）把它们合并成一个新值，版本只递增一次。</translation>
        </message>
        <message>
            <source>Lesson 7 · A LastValue conflict</source>
            <translation>第 7 课 · LastValue 冲突</translation>
        </message>
        <message>
            <source>winner has no reducer, so it is a LastValue channel: one value per superstep. Two Send tasks of vote write it in the same step; the Barrier cannot choose and raises InvalidUpdateError on that channel, applying nothing. The fix: give the key a reducer.</source>
            <translation>winner 没有归约器 (reducer)，所以它是一个 LastValue 通道 (channel)：每个超步 (superstep) 只接受一个值。vote 的两个 Send 任务在同一步中都写入了它；屏障 (Barrier) 无法取舍，于是对该通道抛出 InvalidUpdateError，什么也不应用。解决办法：给这个键一个归约器 (reducer)。</translation>
        </message>
        <message>
            <source>Lesson 8 · Send packets</source>
            <translation>第 8 课 · Send 数据包</translation>
        </message>
        <message>
            <source>A Send router writes one packet per city into the tasks Topic (__pregel_tasks). In the next Plan each packet is a task of its own, with the packet's payload as its input instead of the state.</source>
            <translation>Send 路由器 (router) 为每个城市向任务 Topic（__pregel_tasks）写入一个数据包。在下一个计划 (Plan) 阶段，每个数据包都成为一个独立的任务，以数据包的载荷而不是状态作为输入。</translation>
        </message>
        <message>
            <source>Lesson 9 · Command goto</source>
            <translation>第 9 课 · Command goto</translation>
        </message>
        <message>
            <source>triage returns Command(update=..., goto=...). The goto is a write to branch:to:billing that the node makes itself while it runs: no edge is drawn, the compiled view shows its possible destinations dashed.</source>
            <translation>triage 返回 Command(update=..., goto=...)。goto 是节点 (node) 在运行时自己对 branch:to:billing 的一次写入：图上不画边 (edge)，编译视图用虚线显示它可能去往的目标。</translation>
        </message>
        <message>
            <source>Lesson 10 · Interrupt and resume</source>
            <translation>第 10 课 · 中断 (interrupt) 与恢复</translation>
        </message>
        <message>
            <source>ask calls interrupt(). GraphInterrupt bubbles up out of the task and the run: it stops before the barrier, the checkpoint keeps the interrupt. Answer in the panel above the canvas: Command(resume=...) runs ask again from its start, and this time interrupt() returns the answer.</source>
            <translation>ask 调用了 interrupt()。GraphInterrupt 从任务和运行中冒泡出来：运行在屏障 (barrier) 之前停下，检查点 (checkpoint) 保存这个中断 (interrupt)。在画布上方的面板中作答：Command(resume=...) 让 ask 从头再运行一次，这一次 interrupt() 返回你的回答。</translation>
        </message>
        <message>
            <source>Lesson 11 · A checkpoint per superstep</source>
            <translation>第 11 课 · 每个超步 (superstep) 一个检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>After each barrier the run saves a checkpoint (the strip under the graph). While the next step runs, each finished task's writes are saved against that checkpoint as pending writes: after a crash only the unfinished tasks run again.</source>
            <translation>每次屏障 (barrier) 之后，运行都会保存一个检查点 (checkpoint)（图下方的条带）。下一步运行期间，每个已完成任务的写入都作为待处理写入 (pending writes) 记在该检查点 (checkpoint) 上：崩溃之后只有未完成的任务需要重新运行。</translation>
        </message>
        <message>
            <source>Lesson 12 · Subgraph namespaces</source>
            <translation>第 12 课 · 子图 (subgraph) 命名空间 (namespace)</translation>
        </message>
        <message>
            <source>shout runs a graph of its own inside its task. Its supersteps and checkpoints live under the namespace shout:&lt;task id&gt;, apart from the parent's; stream(subgraphs=True) names parts by it.</source>
            <translation>shout 在自己的任务里运行一个属于它自己的图。它的超步 (superstep) 和检查点 (checkpoint) 位于命名空间 (namespace) shout:&lt;task id&gt; 之下，与父图的分开；stream(subgraphs=True) 用它来标注输出的各部分。</translation>
        </message>
    </context>
    <context>
        <name>lecture.install</name>
        <message>
            <source>Compiled runtime &amp;view</source>
            <translation>编译后的运行时视图(&amp;V)</translation>
        </message>
        <message>
            <source>Toggle between the graph you draw and the graph compile() builds: nodes and channel mailboxes, no edges (F6)</source>
            <translation>在你绘制的图与 compile() 构建的图之间切换：节点 (node) 和通道 (channel) 信箱，没有边 (edge)（F6）</translation>
        </message>
        <message>
            <source>Compiled view</source>
            <translation>编译视图</translation>
        </message>
        <message>
            <source>&amp;Lecture mode</source>
            <translation>讲课模式(&amp;L)</translation>
        </message>
        <message>
            <source>Large type, high contrast, the superstep played phase by phase (F11)</source>
            <translation>大字号、高对比度，逐阶段播放超步 (superstep)（F11）</translation>
        </message>
    </context>
    <context>
        <name>lecture.mode</name>
        <message>
            <source>Lecture</source>
            <translation>讲课</translation>
        </message>
        <message>
            <source>The next phase (Page Down; Page Up goes back)</source>
            <translation>下一阶段（Page Down；Page Up 后退）</translation>
        </message>
        <message>
            <source>Untitled graph</source>
            <translation>未命名的图</translation>
        </message>
        <message>
            <source>Export this step</source>
            <translation>导出这一步</translation>
        </message>
        <message>
            <source>step.png</source>
            <translation>step.png</translation>
        </message>
        <message>
            <source>PNG image (*.png);;SVG drawing (*.svg)</source>
            <translation>PNG 图片 (*.png);;SVG 图形 (*.svg)</translation>
        </message>
        <message>
            <source>Exported {export_step}</source>
            <translation>已导出 {export_step}</translation>
        </message>
        <message>
            <source>No superstep shown yet: Play or Next phase first</source>
            <translation>还没有显示任何超步 (superstep)：请先播放或点“下一阶段”</translation>
        </message>
        <message>
            <source>Export the step's phases to</source>
            <translation>把这一步的各阶段导出到</translation>
        </message>
        <message>
            <source>Exported {len} images to {folder}</source>
            <translation>已导出 {len} 张图片到 {folder}</translation>
        </message>
    </context>
    <context>
        <name>lecture.panel</name>
        <message>
            <source>▶ Play</source>
            <translation>▶ 播放</translation>
        </message>
        <message>
            <source>❚❚ Pause</source>
            <translation>❚❚ 暂停</translation>
        </message>
        <message>
            <source>Next phase ▸</source>
            <translation>下一阶段 ▸</translation>
        </message>
        <message>
            <source>Export step…</source>
            <translation>导出这一步…</translation>
        </message>
        <message>
            <source>Export phases…</source>
            <translation>导出各阶段…</translation>
        </message>
        <message>
            <source>Speed {value:g}×</source>
            <translation>速度 {value:g}×</translation>
        </message>
        <message>
            <source>No superstep yet</source>
            <translation>尚无超步 (superstep)</translation>
        </message>
        <message>
            <source>Play (or Next phase) runs the graph one superstep at a time: plan, execute, barrier.</source>
            <translation>播放（或“下一阶段”）一次运行一个超步 (superstep)：计划 (plan)、执行 (execute)、屏障 (barrier)。</translation>
        </message>
        <message>
            <source>Ended at {title}</source>
            <translation>结束于 {title}</translation>
        </message>
        <message>
            <source>Next phase (Page Down) walks this run from its first phase.</source>
            <translation>“下一阶段”（Page Down）会从第一个阶段开始逐步讲解这次运行。</translation>
        </message>
    </context>
    <context>
        <name>lecture.phases</name>
        <message>
            <source>Plan</source>
            <translation>计划 (Plan)</translation>
        </message>
        <message>
            <source>Execute</source>
            <translation>执行 (Execute)</translation>
        </message>
        <message>
            <source>Barrier</source>
            <translation>屏障 (Barrier)</translation>
        </message>
        <message>
            <source>Step {step} · {kind}</source>
            <translation>第 {step} 步 · {kind}</translation>
        </message>
        <message>
            <source>{len} tasks of {value}</source>
            <translation>{value} 的 {len} 个任务</translation>
        </message>
        <message>
            <source> and </source>
            <translation> 和 </translation>
        </message>
        <message>
            <source>{writers} wrote {channel} in one step, a LastValue channel: it takes one value per step, so the barrier raises InvalidUpdateError and applies nothing.</source>
            <translation>{writers} 在同一步中写入了 {channel}，这是一个 LastValue 通道 (channel)：每步只接受一个值，所以屏障 (barrier) 抛出 InvalidUpdateError，什么也不应用。</translation>
        </message>
        <message>
            <source>{name}: {ch} is at {vtext}, it last saw {value} → it runs</source>
            <translation>{name}：{ch} 现在是 {vtext}，它上次见到的是 {value} → 它运行</translation>
        </message>
        <message>
            <source>nothing</source>
            <translation>无</translation>
        </message>
        <message>
            <source>{name}: a Send packet is its own task, with its own input {show}</source>
            <translation>{name}：一个 Send 数据包就是一个独立的任务，带着它自己的输入 {show}</translation>
        </message>
        <message>
            <source>{name} interrupted last time: resumed, it runs again from its start (interrupt() now returns the answer)</source>
            <translation>{name} 上次被中断 (interrupt)：恢复后它从头再运行一次（这次 interrupt() 返回回答）</translation>
        </message>
        <message>
            <source>No trigger moved: nothing to run, the run ends</source>
            <translation>没有触发通道发生变化：无事可做，运行结束</translation>
        </message>
        <message>
            <source>All tasks read the same snapshot; their writes wait as pending packets, invisible to sibling tasks until the barrier</source>
            <translation>所有任务读取同一个快照；它们的写入作为待处理数据包等待，在屏障 (barrier) 之前对兄弟任务不可见</translation>
        </message>
        <message>
            <source>{name} called interrupt({show}): GraphInterrupt bubbles up, the run stops before the barrier</source>
            <translation>{name} 调用了 interrupt({show})：GraphInterrupt 向上冒泡，运行在屏障 (barrier) 之前停止</translation>
        </message>
        <message>
            <source>{name} wrote {said} (saved as a pending write)</source>
            <translation>{name} 写入了 {said}（保存为待处理写入 (pending write)）</translation>
        </message>
        <message>
            <source>{owner} runs a graph of its own: its supersteps and checkpoints live under namespace {label}</source>
            <translation>{owner} 运行一个属于它自己的图：它的超步 (superstep) 和检查点 (checkpoint) 位于命名空间 (namespace) {label} 之下</translation>
        </message>
        <message>
            <source>inner step {step}: {names}</source>
            <translation>内部第 {step} 步：{names}</translation>
        </message>
        <message>
            <source>{channel}: {len} packets merged by its reducer → {shown_or_dash}</source>
            <translation>{channel}：{len} 个数据包由它的归约器 (reducer) 合并 → {shown_or_dash}</translation>
        </message>
        <message>
            <source>Nothing to apply</source>
            <translation>没有需要应用的写入</translation>
        </message>
        <message>
            <source>Checkpoint saved ({source}, step {step}); the next step's writes are saved against it as pending writes</source>
            <translation>检查点 (checkpoint) 已保存（{source}，第 {step} 步）；下一步的写入将作为待处理写入 (pending writes) 记在它上面</translation>
        </message>
    </context>
    <context>
        <name>lecture.stage</name>
        <message>
            <source>{ch} now {vtext}, it saw {value}</source>
            <translation>{ch} 现为 {vtext}，它见过 {value}</translation>
        </message>
        <message>
            <source>woken: </source>
            <translation>被唤醒：</translation>
        </message>
        <message>
            <source>Send packets, a task each:
</source>
            <translation>Send 数据包，每个一个任务：
</translation>
        </message>
        <message>
            <source>resumed: runs again from its start</source>
            <translation>已恢复：从头再运行</translation>
        </message>
        <message>
            <source>Command goto {where}</source>
            <translation>Command goto {where}</translation>
        </message>
        <message>
            <source>write {channel}</source>
            <translation>写入 {channel}</translation>
        </message>
        <message>
            <source>⚡ interrupt({show})
↑ GraphInterrupt bubbles up: run stops</source>
            <translation>⚡ interrupt({show})
↑ GraphInterrupt 向上冒泡：运行停止</translation>
        </message>
        <message>
            <source>namespace {ns}</source>
            <translation>命名空间 (namespace) {ns}</translation>
        </message>
        <message>
            <source>✖ {count} writes collide in {channel}: a LastValue takes one value per step
InvalidUpdateError: {error}</source>
            <translation>✖ {count} 个写入在 {channel} 中冲突：LastValue 通道 (channel) 每步只接受一个值
InvalidUpdateError: {error}</translation>
        </message>
        <message>
            <source>pending until the barrier: sibling tasks cannot see these writes</source>
            <translation>在屏障 (barrier) 之前待处理：兄弟任务看不到这些写入</translation>
        </message>
        <message>
            <source>inside {node}: a graph of its own, checkpoints under {label}</source>
            <translation>{node} 内部：它自己的图，检查点 (checkpoint) 位于
{label} 之下</translation>
        </message>
        <message>
            <source>reducer merges {len} writes:
  {parts}</source>
            <translation>归约器 (reducer) 合并 {len} 次写入：
  {parts}</translation>
        </message>
        <message>
            <source>checkpoint · step {step}</source>
            <translation>检查点 (checkpoint) · 第 {step} 步</translation>
        </message>
        <message>
            <source>
pending writes: </source>
            <translation>
待处理写入：</translation>
        </message>
    </context>
    <context>
        <name>main_block_wait</name>
        <message>
            <source>Running {name}'s top-level code...
Graphs it has run so far: {count}</source>
            <translation>正在运行 {name} 的顶层代码……
它到目前为止运行过的图：{count}</translation>
        </message>
        <message>
            <source>Running {name}'s if __name__ == "__main__" block...
Graphs it has run so far: {count}</source>
            <translation>正在运行 {name} 的 if __name__ == "__main__" 代码块……
它到目前为止运行过的图：{count}</translation>
        </message>
        <message>
            <source>Opening {name}</source>
            <translation>正在打开 {name}</translation>
        </message>
        <message>
            <source>Stop it and open what it ran</source>
            <translation>停止它，打开它运行过的图</translation>
        </message>
        <message>
            <source>it was still running and was stopped</source>
            <translation>它仍在运行，已被停止</translation>
        </message>
        <message>
            <source>it was still running and could not be stopped</source>
            <translation>它仍在运行，无法停止</translation>
        </message>
    </context>
    <context>
        <name>main_window</name>
        <message>
            <source>Graph specs (*.json)</source>
            <translation>图规格文件 (*.json)</translation>
        </message>
        <message>
            <source>Graph specs (*.json);;Python modules with a graph (*.py)</source>
            <translation>图规格文件 (*.json);;含有图的 Python 模块 (*.py)</translation>
        </message>
        <message>
            <source>Ready</source>
            <translation>就绪</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>文件(&amp;F)</translation>
        </message>
        <message>
            <source>&amp;New</source>
            <translation>新建(&amp;N)</translation>
        </message>
        <message>
            <source>&amp;Open…</source>
            <translation>打开(&amp;O)…</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>保存(&amp;S)</translation>
        </message>
        <message>
            <source>Save &amp;As…</source>
            <translation>另存为(&amp;A)…</translation>
        </message>
        <message>
            <source>Export PNG…</source>
            <translation>导出 PNG…</translation>
        </message>
        <message>
            <source>Export SVG…</source>
            <translation>导出 SVG…</translation>
        </message>
        <message>
            <source>Export Mermaid…</source>
            <translation>导出 Mermaid…</translation>
        </message>
        <message>
            <source>Export LangGraph code…</source>
            <translation>导出 LangGraph 代码…</translation>
        </message>
        <message>
            <source>Start page</source>
            <translation>起始页</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>退出(&amp;Q)</translation>
        </message>
        <message>
            <source>&amp;Edit</source>
            <translation>编辑(&amp;E)</translation>
        </message>
        <message>
            <source>Cu&amp;t</source>
            <translation>剪切(&amp;T)</translation>
        </message>
        <message>
            <source>&amp;Copy</source>
            <translation>复制(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;Paste</source>
            <translation>粘贴(&amp;P)</translation>
        </message>
        <message>
            <source>&amp;Delete</source>
            <translation>删除(&amp;D)</translation>
        </message>
        <message>
            <source>Select &amp;all</source>
            <translation>全选(&amp;A)</translation>
        </message>
        <message>
            <source>&amp;Rename</source>
            <translation>重命名(&amp;R)</translation>
        </message>
        <message>
            <source>D&amp;uplicate</source>
            <translation>复制一份(&amp;U)</translation>
        </message>
        <message>
            <source>Add &amp;conditional edge</source>
            <translation>添加条件边(&amp;C)</translation>
        </message>
        <message>
            <source>Convert edges to a &amp;router</source>
            <translation>将边转换为路由器(&amp;R)</translation>
        </message>
        <message>
            <source>Convert router to plain &amp;edges</source>
            <translation>将路由器转换为普通边(&amp;E)</translation>
        </message>
        <message>
            <source>Breakpoint &amp;before node</source>
            <translation>节点之前的断点(&amp;B)</translation>
        </message>
        <message>
            <source>Breakpoint a&amp;fter node</source>
            <translation>节点之后的断点(&amp;F)</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>视图(&amp;V)</translation>
        </message>
        <message>
            <source>Zoom &amp;in</source>
            <translation>放大(&amp;I)</translation>
        </message>
        <message>
            <source>Zoom &amp;out</source>
            <translation>缩小(&amp;O)</translation>
        </message>
        <message>
            <source>&amp;Fit graph</source>
            <translation>适应图(&amp;F)</translation>
        </message>
        <message>
            <source>Automatic &amp;layout</source>
            <translation>自动布局(&amp;L)</translation>
        </message>
        <message>
            <source>&amp;Snap to grid</source>
            <translation>对齐网格(&amp;S)</translation>
        </message>
        <message>
            <source>&amp;Minimap</source>
            <translation>小地图(&amp;M)</translation>
        </message>
        <message>
            <source>Undo</source>
            <translation>撤销</translation>
        </message>
        <message>
            <source>Redo</source>
            <translation>重做</translation>
        </message>
        <message>
            <source>Imported from {name}: edits here change this spec, not the module. Save keeps them as a spec file beside {name}.</source>
            <translation>从 {name} 导入：这里的修改只改变这个规格 (spec)，不改变模块。保存时会在 {name} 旁边存为规格文件。</translation>
        </message>
        <message>
            <source>Canvas edits do not change {name}</source>
            <translation>画布上的修改不会改变 {name}</translation>
        </message>
        <message>
            <source>{name}{dirty} — Superstep Studio</source>
            <translation>{name}{dirty} — Superstep Studio</translation>
        </message>
        <message>
            <source>Drawn from {where}: this graph is edited in its code</source>
            <translation>由 {where} 绘制：此图在它的代码中编辑</translation>
        </message>
        <message>
            <source>, and reloads when the file changes.</source>
            <translation>，文件变化时会重新加载。</translation>
        </message>
        <message>
            <source> Run, step, breakpoints, checkpoints and forks work as on any graph.</source>
            <translation> 运行、单步、断点、检查点 (checkpoint) 和分叉 (fork) 都与其他图一样可用。</translation>
        </message>
        <message>
            <source>this spec</source>
            <translation>此规格 (spec)</translation>
        </message>
        <message>
            <source>{element} in {file} would {message}</source>
            <translation>{file} 中的 {element} 将会 {message}</translation>
        </message>
        <message>
            <source>{elements} in {file}</source>
            <translation>{file} 中的 {elements}</translation>
        </message>
        <message>
            <source>A file this spec uses changed since you trusted it. </source>
            <translation>自你信任以来，此规格 (spec) 用到的某个文件已经改变。</translation>
        </message>
        <message>
            <source>Pasted elements carry Python code. </source>
            <translation>粘贴的元素带有 Python 代码。</translation>
        </message>
        <message>
            <source>This spec carries Python code ({join}). </source>
            <translation>此规格 (spec) 带有 Python 代码（{join}）。</translation>
        </message>
        <message>
            <source>{join}, not its provider's server or one you set. </source>
            <translation>{join}，而不是其提供方的服务器或你设置的服务器。</translation>
        </message>
        <message>
            <source>{lead}{code}{key}Nothing runs until you trust it.</source>
            <translation>{lead}{code}{key}在你信任它之前，什么都不会运行。</translation>
        </message>
        <message>
            <source>Opened {name}</source>
            <translation>已打开 {name}</translation>
        </message>
        <message>
            <source>Cannot open spec</source>
            <translation>无法打开规格文件</translation>
        </message>
        <message>
            <source>{name} could not be opened; nothing was changed.</source>
            <translation>无法打开 {name}；没有任何改动。</translation>
        </message>
        <message>
            <source>Cannot open {name}: {value}</source>
            <translation>无法打开 {name}：{value}</translation>
        </message>
        <message>
            <source>{where} is edited in its code: nothing to save here</source>
            <translation>{where} 在它的代码中编辑：这里没有要保存的内容</translation>
        </message>
        <message>
            <source>{parent} holds the bundled templates, read-only to the studio: save your copy in another folder</source>
            <translation>{parent} 存放内置模板，对工作室是只读的：请把你的副本保存到其他文件夹</translation>
        </message>
        <message>
            <source>Cannot save {path}: {exc}</source>
            <translation>无法保存 {path}：{exc}</translation>
        </message>
        <message>
            <source>Saved {path}</source>
            <translation>已保存 {path}</translation>
        </message>
        <message>
            <source>Open spec</source>
            <translation>打开规格文件</translation>
        </message>
        <message>
            <source>Save spec</source>
            <translation>保存规格文件</translation>
        </message>
        <message>
            <source>{where} is LangGraph code already</source>
            <translation>{where} 已经是 LangGraph 代码</translation>
        </message>
        <message>
            <source>Export failed: {line}</source>
            <translation>导出失败：{line}</translation>
        </message>
        <message>
            <source>Export failed: {exc}</source>
            <translation>导出失败：{exc}</translation>
        </message>
        <message>
            <source>Exported {path}</source>
            <translation>已导出 {path}</translation>
        </message>
        <message>
            <source>Export {fmt}</source>
            <translation>导出 {fmt}</translation>
        </message>
        <message>
            <source>the disk is full</source>
            <translation>磁盘已满</translation>
        </message>
        <message>
            <source> (the previous autosave is kept)</source>
            <translation>（保留了上一次自动保存）</translation>
        </message>
        <message>
            <source>Autosave failed: {why}{kept}. Save your work elsewhere.</source>
            <translation>自动保存失败：{why}{kept}。请把你的工作保存到别处。</translation>
        </message>
        <message>
            <source>Could not keep the unsaved edits: {exc}</source>
            <translation>无法保留未保存的修改：{exc}</translation>
        </message>
        <message>
            <source>Unsaved changes</source>
            <translation>未保存的修改</translation>
        </message>
        <message>
            <source>Save the changes to {name}?</source>
            <translation>保存对 {name} 的修改吗？</translation>
        </message>
        <message>
            <source>If you don't save them, the recovery banner keeps them until you discard them there.</source>
            <translation>如果不保存，恢复横幅会一直保留它们，直到你在那里丢弃。</translation>
        </message>
        <message>
            <source>Problems ({errors} errors, {value} warnings)</source>
            <translation>问题（{errors} 个错误，{value} 个警告）</translation>
        </message>
    </context>
    <context>
        <name>panels.code_editor</name>
        <message>
            <source>write one `key = expression` per line</source>
            <translation>每行写一个 `key = expression`</translation>
        </message>
        <message>
            <source>line {line}: {message}</source>
            <translation>第 {line} 行：{message}</translation>
        </message>
        <message>
            <source>line {line}: {message} (not saved until it is fixed)</source>
            <translation>第 {line} 行：{message}（修正之前不会保存）</translation>
        </message>
        <message>
            <source>Edit JSON</source>
            <translation>编辑 JSON</translation>
        </message>
        <message>
            <source>Edit text</source>
            <translation>编辑文本</translation>
        </message>
        <message>
            <source>Edit code</source>
            <translation>编辑代码</translation>
        </message>
        <message>
            <source>line {value}: {value2}</source>
            <translation>第 {value} 行：{value2}</translation>
        </message>
        <message>
            <source>Open in a larger editor (Ctrl+E)</source>
            <translation>在更大的编辑器中打开（Ctrl+E）</translation>
        </message>
    </context>
    <context>
        <name>panels.help_dialogs</name>
        <message>
            <source>Drag from a card's round bottom port</source>
            <translation>从卡片底部的圆形端口拖出</translation>
        </message>
        <message>
            <source>Connect to another node</source>
            <translation>连接到另一个节点 (node)</translation>
        </message>
        <message>
            <source>Drag from the ◆ beside it (or Shift-drag the port)</source>
            <translation>从旁边的 ◆ 拖出（或按住 Shift 拖动端口）</translation>
        </message>
        <message>
            <source>Add a conditional route</source>
            <translation>添加条件路由</translation>
        </message>
        <message>
            <source>Ctrl-drag from a port onto a node</source>
            <translation>按住 Ctrl 从端口拖到一个节点上</translation>
        </message>
        <message>
            <source>Join: the node waits for all its sources</source>
            <translation>汇合 (join)：节点等待它的所有来源</translation>
        </message>
        <message>
            <source>Drag the arrow end of an edge</source>
            <translation>拖动边 (edge) 的箭头端</translation>
        </message>
        <message>
            <source>Reconnect it (dashed routes: re-target)</source>
            <translation>重新连接（虚线路由：改变目标）</translation>
        </message>
        <message>
            <source>Menu for the canvas, a node, an edge or a port</source>
            <translation>画布、节点、边或端口的菜单</translation>
        </message>
        <message>
            <source>Middle-drag or Alt-drag</source>
            <translation>中键拖动或按住 Alt 拖动</translation>
        </message>
        <message>
            <source>Pan</source>
            <translation>平移</translation>
        </message>
        <message>
            <source>Wheel</source>
            <translation>滚轮</translation>
        </message>
        <message>
            <source>Zoom</source>
            <translation>缩放</translation>
        </message>
        <message>
            <source>Rename it (a subgraph: open it)</source>
            <translation>重命名（子图 (subgraph)：打开它）</translation>
        </message>
        <message>
            <source>Keyboard shortcuts</source>
            <translation>键盘快捷键</translation>
        </message>
        <message>
            <source>What</source>
            <translation>功能</translation>
        </message>
        <message>
            <source>Keys or gesture</source>
            <translation>按键或手势</translation>
        </message>
        <message>
            <source>About Superstep Studio</source>
            <translation>关于 Superstep Studio</translation>
        </message>
        <message>
            <source>&lt;b&gt;Superstep Studio&lt;/b&gt;&lt;br&gt;Draw, run and understand LangGraph-style agent workflows, offline: one superstep at a time, with every checkpoint in view.&lt;br&gt;&lt;br&gt;Graphs export as plain LangGraph code.</source>
            <translation>&lt;b&gt;Superstep Studio&lt;/b&gt;&lt;br&gt;离线绘制、运行并理解 LangGraph 风格的智能体 (agent) 工作流：一次一个超步 (superstep)，每个检查点 (checkpoint) 尽在眼前。&lt;br&gt;&lt;br&gt;图可以导出为普通的 LangGraph 代码。</translation>
        </message>
    </context>
    <context>
        <name>panels.inspector.agent_form</name>
        <message>
            <source>agent {agent_id!r} is gone</source>
            <translation>智能体 {agent_id!r} 已不存在</translation>
        </message>
        <message>
            <source>agent {agent_id}: {exc}</source>
            <translation>智能体 {agent_id}：{exc}</translation>
        </message>
        <message>
            <source>Model of agent {agent_id}</source>
            <translation>智能体 {agent_id} 的模型</translation>
        </message>
        <message>
            <source>Change system prompt of {agent_id}</source>
            <translation>修改 {agent_id} 的系统提示词</translation>
        </message>
        <message>
            <source>System prompt</source>
            <translation>系统提示词</translation>
        </message>
        <message>
            <source>Tools</source>
            <translation>工具</translation>
        </message>
        <message>
            <source>Change tools of {agent_id}</source>
            <translation>修改 {agent_id} 的工具</translation>
        </message>
        <message>
            <source>MCP servers</source>
            <translation>MCP 服务器</translation>
        </message>
        <message>
            <source>Middleware (in order)</source>
            <translation>中间件 (middleware)（按顺序）</translation>
        </message>
        <message>
            <source>Deep agent</source>
            <translation>深度智能体 (deep agent)</translation>
        </message>
    </context>
    <context>
        <name>panels.inspector.deep_form</name>
        <message>
            <source>in the graph state</source>
            <translation>在图状态中</translation>
        </message>
        <message>
            <source>in the graph's store</source>
            <translation>在图的存储 (store) 中</translation>
        </message>
        <message>
            <source>in a folder</source>
            <translation>在文件夹中</translation>
        </message>
        <message>
            <source>Deep agent: files, subagents (deepagents' create_deep_agent)</source>
            <translation>深度智能体 (deep agent)：文件、子智能体（deepagents 的 create_deep_agent）</translation>
        </message>
        <message>
            <source>{value} deep agent</source>
            <translation>{value} 深度智能体</translation>
        </message>
        <message>
            <source>Files</source>
            <translation>文件</translation>
        </message>
        <message>
            <source>Change folder</source>
            <translation>修改文件夹</translation>
        </message>
        <message>
            <source>the folder, relative to the graph file</source>
            <translation>文件夹，相对于图文件</translation>
        </message>
        <message>
            <source>Folder</source>
            <translation>文件夹</translation>
        </message>
        <message>
            <source>Review</source>
            <translation>审核</translation>
        </message>
        <message>
            <source>tools a human approves first, e.g. write_file</source>
            <translation>需要人先批准的工具，例如 write_file</translation>
        </message>
        <message>
            <source>Subagents (reached through the task tool)</source>
            <translation>子智能体（通过 task 工具调用）</translation>
        </message>
        <message>
            <source>Change reviewed tools</source>
            <translation>修改需审核的工具</translation>
        </message>
        <message>
            <source>deep agent {owner}: {first_error}</source>
            <translation>深度智能体 {owner}：{first_error}</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Description</source>
            <translation>描述</translation>
        </message>
        <message>
            <source>when to use it: the agent's model reads this</source>
            <translation>何时使用它：智能体的模型会读到这段话</translation>
        </message>
        <message>
            <source>Runs</source>
            <translation>运行</translation>
        </message>
        <message>
            <source>the graph the program made for it</source>
            <translation>程序为它构建的图</translation>
        </message>
        <message>
            <source>Prompt</source>
            <translation>提示词</translation>
        </message>
        <message>
            <source>Its own {join} (set in the file)</source>
            <translation>它自己的 {join}（在文件中设置）</translation>
        </message>
        <message>
            <source>It uses the agent's tools and model</source>
            <translation>它使用智能体的工具和模型</translation>
        </message>
        <message>
            <source>subagent {name}: {first_error}</source>
            <translation>子智能体 {name}：{first_error}</translation>
        </message>
        <message>
            <source>Change subagent</source>
            <translation>修改子智能体</translation>
        </message>
        <message>
            <source>Say what it is for.</source>
            <translation>说明它的用途。</translation>
        </message>
        <message>
            <source>Add subagent</source>
            <translation>添加子智能体</translation>
        </message>
        <message>
            <source>Remove subagent</source>
            <translation>移除子智能体</translation>
        </message>
    </context>
    <context>
        <name>panels.inspector.hooks_form</name>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>  (built with its settings)</source>
            <translation>  （按其设置构建）</translation>
        </message>
        <message>
            <source>From the program</source>
            <translation>来自程序</translation>
        </message>
        <message>
            <source>Hooks</source>
            <translation>钩子</translation>
        </message>
        <message>
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <source>Can jump to</source>
            <translation>可以跳转到</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>Import</source>
            <translation>导入路径</translation>
        </message>
        <message>
            <source>Add hook</source>
            <translation>添加钩子</translation>
        </message>
    </context>
    <context>
        <name>panels.inspector.mcp_form</name>
        <message>
            <source>type the server's command line or its http(s):// URL</source>
            <translation>请输入服务器的命令行或它的 http(s):// URL</translation>
        </message>
        <message>
            <source>{name}: write NAME=$VARIABLE (the value stays in your environment or keychain, never in the spec)</source>
            <translation>{name}：请写成 NAME=$VARIABLE（值留在你的环境或钥匙串中，绝不写入规格文件）</translation>
        </message>
        <message>
            <source>command line, or http(s):// URL</source>
            <translation>命令行，或 http(s):// URL</translation>
        </message>
        <message>
            <source>Add server</source>
            <translation>添加服务器</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Command</source>
            <translation>命令</translation>
        </message>
        <message>
            <source>URL</source>
            <translation>URL</translation>
        </message>
        <message>
            <source>headers (URL) or environment variables (command) whose values come from your environment or keychain, never the spec</source>
            <translation>请求头（URL）或环境变量（命令），其值来自你的环境或钥匙串，绝不写入规格文件</translation>
        </message>
        <message>
            <source>Secrets</source>
            <translation>密钥</translation>
        </message>
        <message>
            <source>Keychain</source>
            <translation>钥匙串</translation>
        </message>
        <message>
            <source>List tools</source>
            <translation>列出工具</translation>
        </message>
        <message>
            <source>not offered by the server</source>
            <translation>服务器未提供</translation>
        </message>
        <message>
            <source>Tools</source>
            <translation>工具</translation>
        </message>
        <message>
            <source>value, saved in the keychain</source>
            <translation>值，保存在钥匙串中</translation>
        </message>
        <message>
            <source>Save</source>
            <translation>保存</translation>
        </message>
        <message>
            <source>{name} not saved: {kind}: {exc}</source>
            <translation>{name} 未保存：{kind}: {exc}</translation>
        </message>
        <message>
            <source>saved as {user}</source>
            <translation>已保存为 {user}</translation>
        </message>
        <message>
            <source>removed: {user}</source>
            <translation>已移除：{user}</translation>
        </message>
        <message>
            <source>Check the tools the agent gets (List tools asks the server).</source>
            <translation>勾选智能体可用的工具（“列出工具”会询问服务器）。</translation>
        </message>
        <message>
            <source>{count} tools offered by {server}; checked ones go to the agent.</source>
            <translation>{server} 提供了 {count} 个工具；勾选的工具交给智能体。</translation>
        </message>
        <message>
            <source>Listing would {message}: trust the spec first (the banner above the canvas)</source>
            <translation>列出工具将会{message}：请先信任此规格 (spec)（画布上方的横幅）</translation>
        </message>
        <message>
            <source>Asking {server} for its tools…</source>
            <translation>正在向 {server} 询问它的工具…</translation>
        </message>
        <message>
            <source>MCP server {server}: {error}</source>
            <translation>MCP 服务器 {server}：{error}</translation>
        </message>
        <message>
            <source>Change MCP server {server}</source>
            <translation>修改 MCP 服务器 {server}</translation>
        </message>
        <message>
            <source>command: {exc}</source>
            <translation>命令：{exc}</translation>
        </message>
        <message>
            <source>secrets: {error}</source>
            <translation>密钥：{error}</translation>
        </message>
        <message>
            <source>Give MCP tool {name}</source>
            <translation>提供 MCP 工具 {name}</translation>
        </message>
        <message>
            <source>Take away MCP tool {name}</source>
            <translation>收回 MCP 工具 {name}</translation>
        </message>
        <message>
            <source>MCP server: {error}</source>
            <translation>MCP 服务器：{error}</translation>
        </message>
        <message>
            <source>Add MCP server {server}</source>
            <translation>添加 MCP 服务器 {server}</translation>
        </message>
        <message>
            <source>Remove MCP server {server}</source>
            <translation>移除 MCP 服务器 {server}</translation>
        </message>
    </context>
    <context>
        <name>panels.inspector.middleware_form</name>
        <message>
            <source>no hooks</source>
            <translation>无钩子</translation>
        </message>
        <message>
            <source>drag to reorder: middleware run in this order (after_* hooks in reverse)</source>
            <translation>拖动以调整顺序：中间件 (middleware) 按此顺序运行（after_* 钩子按相反顺序）</translation>
        </message>
        <message>
            <source>Add</source>
            <translation>添加</translation>
        </message>
        <message>
            <source>middleware {name}: {exc}</source>
            <translation>中间件 {name}：{exc}</translation>
        </message>
        <message>
            <source>Reorder middleware</source>
            <translation>调整中间件顺序</translation>
        </message>
    </context>
    <context>
        <name>panels.inspector.model_form</name>
        <message>
            <source>{provider} (not installed)</source>
            <translation>{provider}（未安装）</translation>
        </message>
        <message>
            <source>scripted replies offline from the responses below; the others are the langchain providers installed here</source>
            <translation>scripted 用下面的回复离线作答；其他是本机已安装的 langchain 提供方</translation>
        </message>
        <message>
            <source>Provider</source>
            <translation>提供方</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>param</source>
            <translation>参数</translation>
        </message>
        <message>
            <source>value (JSON)</source>
            <translation>值 (JSON)</translation>
        </message>
        <message>
            <source>Params</source>
            <translation>参数</translation>
        </message>
        <message>
            <source>model: {exc}</source>
            <translation>模型：{exc}</translation>
        </message>
    </context>
    <context>
        <name>panels.inspector.responses_editor</name>
        <message>
            <source>Scripted responses (the model's replies, in order)</source>
            <translation>脚本回复（模型的回复，按顺序）</translation>
        </message>
        <message>
            <source>Response {value}: text</source>
            <translation>回复 {value}：文本</translation>
        </message>
        <message>
            <source>Tool calls</source>
            <translation>工具调用</translation>
        </message>
        <message>
            <source>tool</source>
            <translation>工具</translation>
        </message>
        <message>
            <source>args (JSON)</source>
            <translation>参数 (JSON)</translation>
        </message>
        <message>
            <source>id</source>
            <translation>id</translation>
        </message>
        <message>
            <source>response {value}: {exc}</source>
            <translation>回复 {value}：{exc}</translation>
        </message>
        <message>
            <source>response {value}, tool call {value2}: args are not JSON ({exc})</source>
            <translation>回复 {value}，工具调用 {value2}：参数不是 JSON（{exc}）</translation>
        </message>
        <message>
            <source>response {value}, tool call {value2}: args must be a JSON object</source>
            <translation>回复 {value}，工具调用 {value2}：参数必须是 JSON 对象</translation>
        </message>
    </context>
    <context>
        <name>panels.inspector.settings_form</name>
        <message>
            <source>No settings.</source>
            <translation>没有设置项。</translation>
        </message>
        <message>
            <source>The engine has no class for this middleware yet.</source>
            <translation>引擎还没有这个中间件 (middleware) 的类。</translation>
        </message>
        <message>
            <source>* required</source>
            <translation>* 必填</translation>
        </message>
        <message>
            <source>{name} {name2}: give a{value}</source>
            <translation>{name} {name2}：请给出{value}</translation>
        </message>
        <message>
            <source>all tools; or names, comma-separated</source>
            <translation>所有工具；或用逗号分隔的名称</translation>
        </message>
        <message>
            <source>JSON, e.g. {"messages": 40}</source>
            <translation>JSON，例如 {"messages": 40}</translation>
        </message>
        <message>
            <source>review {tool}</source>
            <translation>审核 {tool}</translation>
        </message>
    </context>
    <context>
        <name>panels.inspector.tools_editor</name>
        <message>
            <source>  (returns directly)</source>
            <translation>  （直接返回）</translation>
        </message>
        <message>
            <source>No tools yet.</source>
            <translation>还没有工具。</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Description</source>
            <translation>描述</translation>
        </message>
        <message>
            <source>Call</source>
            <translation>调用</translation>
        </message>
        <message>
            <source>the call that makes the tool (its name and description are the tool's)</source>
            <translation>构建该工具的调用（名称和描述来自工具本身）</translation>
        </message>
        <message>
            <source>what the model is told the tool does</source>
            <translation>告诉模型这个工具做什么</translation>
        </message>
        <message>
            <source>return directly (its result ends the turn)</source>
            <translation>直接返回（它的结果结束这一轮）</translation>
        </message>
        <message>
            <source>Import</source>
            <translation>导入路径</translation>
        </message>
        <message>
            <source>Code</source>
            <translation>代码</translation>
        </message>
        <message>
            <source>tool {name}: {first_error}</source>
            <translation>工具 {name}：{first_error}</translation>
        </message>
    </context>
    <context>
        <name>panels.inspector_panel</name>
        <message>
            <source>{len} elements selected</source>
            <translation>已选择 {len} 个元素</translation>
        </message>
        <message>
            <source>No agent {agent!r}: fix the agent field.</source>
            <translation>没有智能体 {agent!r}：请修正 agent 字段。</translation>
        </message>
        <message>
            <source>{label}: not accepted</source>
            <translation>{label}：不被接受</translation>
        </message>
        <message>
            <source>Graph</source>
            <translation>图</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Description</source>
            <translation>描述</translation>
        </message>
        <message>
            <source>Recursion limit</source>
            <translation>递归上限</translation>
        </message>
        <message>
            <source>{replace} node</source>
            <translation>{replace} 节点</translation>
        </message>
        <message>
            <source>Id</source>
            <translation>Id</translation>
        </message>
        <message>
            <source>Label</source>
            <translation>标签</translation>
        </message>
        <message>
            <source>Function</source>
            <translation>函数</translation>
        </message>
        <message>
            <source>Code</source>
            <translation>代码</translation>
        </message>
        <message>
            <source>Call</source>
            <translation>调用</translation>
        </message>
        <message>
            <source>Import</source>
            <translation>导入路径</translation>
        </message>
        <message>
            <source>Values</source>
            <translation>值</translation>
        </message>
        <message>
            <source>Goto</source>
            <translation>Goto</translation>
        </message>
        <message>
            <source>System prompt</source>
            <translation>系统提示词</translation>
        </message>
        <message>
            <source>Prompt</source>
            <translation>提示词</translation>
        </message>
        <message>
            <source>Payload</source>
            <translation>载荷</translation>
        </message>
        <message>
            <source>Answer key</source>
            <translation>回答键</translation>
        </message>
        <message>
            <source>Subgraph</source>
            <translation>子图 (subgraph)</translation>
        </message>
        <message>
            <source>Open inner graph</source>
            <translation>打开内部图</translation>
        </message>
        <message>
            <source>Tools</source>
            <translation>工具</translation>
        </message>
        <message>
            <source>Goto destinations</source>
            <translation>Goto 目标</translation>
        </message>
        <message>
            <source>Subscribe only</source>
            <translation>仅订阅 (subscribe only)</translation>
        </message>
        <message>
            <source>Subscribe to</source>
            <translation>订阅 (subscribe to)</translation>
        </message>
        <message>
            <source>Write to</source>
            <translation>写入 (write to)</translation>
        </message>
        <message>
            <source>join edge</source>
            <translation>汇合边</translation>
        </message>
        <message>
            <source>edge</source>
            <translation>边 (edge)</translation>
        </message>
        <message>
            <source>Sources</source>
            <translation>来源</translation>
        </message>
        <message>
            <source>Target</source>
            <translation>目标</translation>
        </message>
        <message>
            <source>conditional edge</source>
            <translation>条件边</translation>
        </message>
        <message>
            <source>After</source>
            <translation>之后</translation>
        </message>
        <message>
            <source>note</source>
            <translation>便签</translation>
        </message>
        <message>
            <source>Text</source>
            <translation>文本</translation>
        </message>
        <message>
            <source>Apply JSON</source>
            <translation>应用 JSON</translation>
        </message>
        <message>
            <source>not JSON: {exc}</source>
            <translation>不是 JSON：{exc}</translation>
        </message>
        <message>
            <source>give a JSON object</source>
            <translation>请给出一个 JSON 对象</translation>
        </message>
        <message>
            <source>All fields</source>
            <translation>所有字段</translation>
        </message>
    </context>
    <context>
        <name>panels.palette_panel</name>
        <message>
            <source>Python code (runs only when the spec is trusted)</source>
            <translation>Python 代码（仅在规格 (spec) 受信任时运行）</translation>
        </message>
        <message>
            <source>writes state keys from safe expressions</source>
            <translation>用安全表达式写入状态键</translation>
        </message>
        <message>
            <source>calls a chat model on the messages</source>
            <translation>用消息调用聊天模型</translation>
        </message>
        <message>
            <source>runs the tool calls of the last AI message</source>
            <translation>执行最后一条 AI 消息中的工具调用</translation>
        </message>
        <message>
            <source>create_agent: model, tools and middleware</source>
            <translation>create_agent：模型、工具和中间件 (middleware)</translation>
        </message>
        <message>
            <source>pauses for a human answer</source>
            <translation>暂停等待人工回答</translation>
        </message>
        <message>
            <source>runs another graph as one node</source>
            <translation>把另一个图作为一个节点运行</translation>
        </message>
        <message>
            <source>Nodes</source>
            <translation>节点 (node)</translation>
        </message>
        <message>
            <source>a sticky note on the canvas</source>
            <translation>画布上的便签</translation>
        </message>
        <message>
            <source>Middleware</source>
            <translation>中间件 (middleware)</translation>
        </message>
        <message>
            <source>drop on an agent; hooks: {join}</source>
            <translation>拖放到智能体上；钩子：{join}</translation>
        </message>
        <message>
            <source>custom middleware</source>
            <translation>自定义中间件</translation>
        </message>
        <message>
            <source>your own hooks</source>
            <translation>你自己的钩子</translation>
        </message>
        <message>
            <source>Add to the canvas</source>
            <translation>添加到画布</translation>
        </message>
        <message>
            <source>In the middle of the view (or drag it where it goes)</source>
            <translation>放在视图中央（或拖到要放的位置）</translation>
        </message>
    </context>
    <context>
        <name>panels.problems_panel</name>
        <message>
            <source>Element</source>
            <translation>元素</translation>
        </message>
        <message>
            <source>Problem</source>
            <translation>问题</translation>
        </message>
        <message>
            <source>Fix</source>
            <translation>修复</translation>
        </message>
        <message>
            <source>Show it on the canvas</source>
            <translation>在画布上显示</translation>
        </message>
        <message>
            <source>Select the element and show it in the inspector</source>
            <translation>选中该元素并在检查器中显示</translation>
        </message>
        <message>
            <source>Copy problem</source>
            <translation>复制问题</translation>
        </message>
    </context>
    <context>
        <name>panels.router_editor</name>
        <message>
            <source>Expression</source>
            <translation>表达式</translation>
        </message>
        <message>
            <source>Python function</source>
            <translation>Python 函数</translation>
        </message>
        <message>
            <source>Send fan-out</source>
            <translation>Send 扇出</translation>
        </message>
        <message>
            <source>result</source>
            <translation>结果</translation>
        </message>
        <message>
            <source>What the router returns for this route</source>
            <translation>路由器 (router) 为此路由返回的值</translation>
        </message>
        <message>
            <source>Remove this route</source>
            <translation>移除此路由</translation>
        </message>
        <message>
            <source>Add route</source>
            <translation>添加路由</translation>
        </message>
        <message>
            <source>Add destination</source>
            <translation>添加目标</translation>
        </message>
        <message>
            <source>every node is already a target</source>
            <translation>每个节点都已是目标</translation>
        </message>
        <message>
            <source>two routes have the same result: give each its own</source>
            <translation>两条路由的结果相同：请给每条一个不同的结果</translation>
        </message>
        <message>
            <source>Expression: a safe rule over the state. Python function: your code (runs when the spec is trusted). Send fan-out: one task per item, each with its own input.</source>
            <translation>表达式：基于状态的安全规则。Python 函数：你的代码（规格 (spec) 受信任时运行）。Send 扇出：每个元素一个任务，各有自己的输入。</translation>
        </message>
        <message>
            <source>Router</source>
            <translation>路由器 (router)</translation>
        </message>
        <message>
            <source>Rule</source>
            <translation>规则</translation>
        </message>
        <message>
            <source>returns a route's result, e.g. 'b' if total &gt; 5 else END</source>
            <translation>返回某条路由的结果，例如 'b' if total &gt; 5 else END</translation>
        </message>
        <message>
            <source>Function</source>
            <translation>函数</translation>
        </message>
        <message>
            <source>Code</source>
            <translation>代码</translation>
        </message>
        <message>
            <source>Send to</source>
            <translation>发送 (Send) 到</translation>
        </message>
        <message>
            <source>For each item of</source>
            <translation>对以下列表的每个元素</translation>
        </message>
        <message>
            <source>an expression giving a list, e.g. subjects</source>
            <translation>一个给出列表的表达式，例如 subjects</translation>
        </message>
        <message>
            <source>Task input</source>
            <translation>任务输入</translation>
        </message>
        <message>
            <source>key = expression; … (item is the element), e.g. subject = item</source>
            <translation>key = expression; …（item 是当前元素），例如 subject = item</translation>
        </message>
        <message>
            <source>Routes</source>
            <translation>路由</translation>
        </message>
        <message>
            <source>router: {short}</source>
            <translation>路由器：{short}</translation>
        </message>
        <message>
            <source>task input: {exc}</source>
            <translation>任务输入：{exc}</translation>
        </message>
        <message>
            <source>add the node to send to first</source>
            <translation>请先添加要发送到的节点</translation>
        </message>
        <message>
            <source>Switch to Send fan-out</source>
            <translation>切换为 Send 扇出</translation>
        </message>
        <message>
            <source>A Send fan-out sends every task to {shown}. Its routes to {join} would be dropped.</source>
            <translation>Send 扇出把每个任务都发送到 {shown}。它到 {join} 的路由将被丢弃。</translation>
        </message>
        <message>
            <source>Drop the routes and switch</source>
            <translation>丢弃路由并切换</translation>
        </message>
        <message>
            <source>Keep the routes</source>
            <translation>保留路由</translation>
        </message>
        <message>
            <source>{strip!r}: write key = expression</source>
            <translation>{strip!r}：请写成 key = expression</translation>
        </message>
    </context>
    <context>
        <name>panels.start_page</name>
        <message>
            <source>First steps</source>
            <translation>入门</translation>
        </message>
        <message>
            <source>A short course: how a superstep works</source>
            <translation>短课程：超步 (superstep) 如何运作</translation>
        </message>
        <message>
            <source>Parallel work</source>
            <translation>并行工作</translation>
        </message>
        <message>
            <source>Pauses, people and time travel</source>
            <translation>暂停、人工介入与时间旅行</translation>
        </message>
        <message>
            <source>Control flow and reliability</source>
            <translation>控制流与可靠性</translation>
        </message>
        <message>
            <source>Graphs inside graphs</source>
            <translation>图中之图</translation>
        </message>
        <message>
            <source>Superstep Studio</source>
            <translation>Superstep Studio</translation>
        </message>
        <message>
            <source>Draw, run and understand LangGraph-style agent workflows — offline.</source>
            <translation>离线绘制、运行并理解 LangGraph 风格的智能体 (agent) 工作流。</translation>
        </message>
        <message>
            <source>New graph</source>
            <translation>新建图</translation>
        </message>
        <message>
            <source>Open…</source>
            <translation>打开…</translation>
        </message>
        <message>
            <source>Templates</source>
            <translation>模板</translation>
        </message>
        <message>
            <source>Recent files</source>
            <translation>最近的文件</translation>
        </message>
        <message>
            <source>Open as an untitled copy</source>
            <translation>作为未命名副本打开</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>打开</translation>
        </message>
        <message>
            <source>Copy path</source>
            <translation>复制路径</translation>
        </message>
        <message>
            <source>No recent files yet</source>
            <translation>还没有最近的文件</translation>
        </message>
        <message>
            <source>More</source>
            <translation>更多</translation>
        </message>
    </context>
    <context>
        <name>panels.state_panel</name>
        <message>
            <source>yes</source>
            <translation>是</translation>
        </message>
        <message>
            <source>a key that is neither input nor output is private</source>
            <translation>既不是输入也不是输出的键是私有的</translation>
        </message>
        <message>
            <source>Change state key {name}</source>
            <translation>修改状态键 {name}</translation>
        </message>
        <message>
            <source>Remove {name}</source>
            <translation>移除 {name}</translation>
        </message>
        <message>
            <source>Move up</source>
            <translation>上移</translation>
        </message>
        <message>
            <source>Move down</source>
            <translation>下移</translation>
        </message>
        <message>
            <source>Add state key {name}</source>
            <translation>添加状态键 {name}</translation>
        </message>
        <message>
            <source>Remove state key {name}</source>
            <translation>移除状态键 {name}</translation>
        </message>
        <message>
            <source>Reorder state keys</source>
            <translation>调整状态键顺序</translation>
        </message>
        <message>
            <source>Add key</source>
            <translation>添加键</translation>
        </message>
    </context>
    <context>
        <name>python_open</name>
        <message>
            <source>opening {name} runs its Python code: not opened (pass --trust to allow it)</source>
            <translation>打开 {name} 会运行它的 Python 代码：未打开（用 --trust 允许运行）</translation>
        </message>
        <message>
            <source>{name} changed on disk. Reloading</source>
            <translation>{name} 在磁盘上已改变。正在重新加载</translation>
        </message>
        <message>
            <source>Run this Python module?</source>
            <translation>运行这个 Python 模块？</translation>
        </message>
        <message>
            <source>{lead} imports it, which runs its Python code and the code of everything it imports.</source>
            <translation>{lead}会导入它，这将运行它的 Python 代码以及它导入的所有代码。</translation>
        </message>
        <message>
            <source>Opening {name}</source>
            <translation>打开 {name} </translation>
        </message>
        <message>
            <source>{path}

If it holds no graph, the graphs its code runs open: its top-level code and its if __name__ == "__main__" block run, as python {name} would.

Open it only if you trust this code.</source>
            <translation>{path}

如果它没有图，就打开它的代码运行的图：它的顶层代码和 if __name__ == "__main__" 代码块都会运行（如同 python {name}）。

只有在你信任这段代码时才打开它。</translation>
        </message>
        <message>
            <source>Run and open</source>
            <translation>运行并打开</translation>
        </message>
        <message>
            <source>{file} defines {count} graphs: {names}; open one with {path}:{first}</source>
            <translation>{file} 定义了 {count} 个图：{names}；用 {path}:{first} 打开其中一个</translation>
        </message>
        <message>
            <source>Pick a graph</source>
            <translation>选择一个图</translation>
        </message>
        <message>
            <source>{name} holds several graphs:</source>
            <translation>{name} 包含多个图：</translation>
        </message>
        <message>
            <source>{name}:{name2} is a {name__}, which the engine does not run</source>
            <translation>{name}:{name2} 是一个 {name__}，引擎不运行它</translation>
        </message>
        <message>
            <source>run by its top-level code</source>
            <translation>由它的顶层代码运行</translation>
        </message>
        <message>
            <source>made by its top-level code, which ran none</source>
            <translation>由它的顶层代码创建，顶层代码没有运行任何图</translation>
        </message>
        <message>
            <source>; its if __name__ == "__main__" block stopped: {error}</source>
            <translation>；它的 if __name__ == "__main__" 代码块中途停止：{error}</translation>
        </message>
        <message>
            <source>Drawn from code: {why_code}</source>
            <translation>由代码绘制：{why_code}</translation>
        </message>
        <message>
            <source>run by its if __name__ == "__main__" block</source>
            <translation>由它的 if __name__ == "__main__" 代码块运行</translation>
        </message>
        <message>
            <source>made by its if __name__ == "__main__" block, which ran none</source>
            <translation>由它的 if __name__ == "__main__" 代码块创建，该代码块没有运行任何图</translation>
        </message>
        <message>
            <source>, which stopped: {error}</source>
            <translation>，它中途停止：{error}</translation>
        </message>
        <message>
            <source>Imported {name} from {name2}</source>
            <translation>已从 {name2} 导入 {name}</translation>
        </message>
        <message>
            <source>Did not open {name}: its code was not run</source>
            <translation>没有打开 {name}：它的代码未被运行</translation>
        </message>
        <message>
            <source>{name} changed; not reloaded</source>
            <translation>{name} 已改变；未重新加载</translation>
        </message>
        <message>
            <source>Reloaded {name}</source>
            <translation>已重新加载 {name}</translation>
        </message>
    </context>
    <context>
        <name>quick_fixes</name>
        <message>
            <source>Add state key {name}</source>
            <translation>添加状态键 {name}</translation>
        </message>
        <message>
            <source>Add {name!r} to the state</source>
            <translation>把 {name!r} 添加到状态</translation>
        </message>
    </context>
    <context>
        <name>remote.__init__</name>
        <message>
            <source>Server</source>
            <translation>服务器</translation>
        </message>
        <message>
            <source>Connect to &amp;server…</source>
            <translation>连接到服务器(&amp;S)…</translation>
        </message>
        <message>
            <source>Attach to a LangGraph server: its assistants, threads and checkpoints</source>
            <translation>连接到 LangGraph 服务器：它的助手 (assistant)、线程 (thread) 和检查点 (checkpoint)</translation>
        </message>
    </context>
    <context>
        <name>remote.remote_dock</name>
        <message>
            <source>http://127.0.0.1:2024</source>
            <translation>http://127.0.0.1:2024</translation>
        </message>
        <message>
            <source>API key (optional)</source>
            <translation>API 密钥（可选）</translation>
        </message>
        <message>
            <source>Keep key in keychain</source>
            <translation>把密钥保存在钥匙串中</translation>
        </message>
        <message>
            <source>Save the key in the OS keychain; otherwise it is kept in memory only</source>
            <translation>把密钥保存在系统钥匙串中；否则只保存在内存里</translation>
        </message>
        <message>
            <source>Connect</source>
            <translation>连接</translation>
        </message>
        <message>
            <source>Server</source>
            <translation>服务器</translation>
        </message>
        <message>
            <source>Not connected</source>
            <translation>未连接</translation>
        </message>
        <message>
            <source>New thread</source>
            <translation>新线程 (thread)</translation>
        </message>
        <message>
            <source>Refresh</source>
            <translation>刷新</translation>
        </message>
        <message>
            <source>step</source>
            <translation>步</translation>
        </message>
        <message>
            <source>source</source>
            <translation>来源</translation>
        </message>
        <message>
            <source>next</source>
            <translation>下一步</translation>
        </message>
        <message>
            <source>checkpoint</source>
            <translation>检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>input or fork values as JSON, e.g. {"topic": "owls"}</source>
            <translation>以 JSON 给出输入或分叉的值，例如 {"topic": "owls"}</translation>
        </message>
        <message>
            <source>Run ▶</source>
            <translation>运行 ▶</translation>
        </message>
        <message>
            <source>Fork here</source>
            <translation>在此分叉 (fork)</translation>
        </message>
        <message>
            <source>A new checkpoint branching from the selected one, with the values above</source>
            <translation>从所选检查点 (checkpoint) 分出的新检查点，带上面的值</translation>
        </message>
        <message>
            <source>Run from here</source>
            <translation>从这里运行</translation>
        </message>
        <message>
            <source>Stop ■</source>
            <translation>停止 ■</translation>
        </message>
        <message>
            <source>End the streamed run here (the server may finish it)</source>
            <translation>在这里结束流式运行（服务器可能会把它跑完）</translation>
        </message>
        <message>
            <source>Resume</source>
            <translation>恢复</translation>
        </message>
        <message>
            <source>Streamed run parts appear here</source>
            <translation>流式运行的输出显示在这里</translation>
        </message>
        <message>
            <source>Input</source>
            <translation>输入</translation>
        </message>
        <message>
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>Assistants</source>
            <translation>助手 (assistant)</translation>
        </message>
        <message>
            <source>Threads</source>
            <translation>线程 (thread)</translation>
        </message>
        <message>
            <source>Checkpoint history (newest first)</source>
            <translation>检查点 (checkpoint) 历史（最新的在前）</translation>
        </message>
        <message>
            <source>Values</source>
            <translation>值</translation>
        </message>
        <message>
            <source>Streamed parts</source>
            <translation>流式输出</translation>
        </message>
        <message>
            <source>&lt;b&gt;{title}&lt;/b&gt;</source>
            <translation>&lt;b&gt;{title}&lt;/b&gt;</translation>
        </message>
        <message>
            <source>Copy assistant id</source>
            <translation>复制助手 id</translation>
        </message>
        <message>
            <source>Run on this thread</source>
            <translation>在此线程上运行</translation>
        </message>
        <message>
            <source>With the input above</source>
            <translation>使用上面的输入</translation>
        </message>
        <message>
            <source>Reload its checkpoints</source>
            <translation>重新加载它的检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>Copy thread id</source>
            <translation>复制线程 id</translation>
        </message>
        <message>
            <source>Copy checkpoint id</source>
            <translation>复制检查点 (checkpoint) id</translation>
        </message>
        <message>
            <source>Type the server's URL, e.g. http://127.0.0.1:2024</source>
            <translation>输入服务器的 URL，例如 http://127.0.0.1:2024</translation>
        </message>
        <message>
            <source>Connecting to {url}…</source>
            <translation>正在连接 {url}…</translation>
        </message>
        <message>
            <source>Connected to {url}: {len} assistant(s), {len2} thread(s)</source>
            <translation>已连接到 {url}：{len} 个助手，{len2} 个线程</translation>
        </message>
        <message>
            <source>{what} is not JSON: {exc}</source>
            <translation>{what} 不是 JSON：{exc}</translation>
        </message>
        <message>
            <source>The input</source>
            <translation>输入</translation>
        </message>
        <message>
            <source>Run from checkpoint</source>
            <translation>从检查点 (checkpoint) 运行</translation>
        </message>
        <message>
            <source>The answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>The fork's values</source>
            <translation>分叉的值</translation>
        </message>
        <message>
            <source>Forked from checkpoint {value}… as {value2}…; Run continues from it</source>
            <translation>已从检查点 (checkpoint) {value}… 分叉为 {value2}…；运行将从它继续</translation>
        </message>
        <message>
            <source>Pick a thread and an assistant first</source>
            <translation>请先选择一个线程和一个助手</translation>
        </message>
        <message>
            <source>{name}: streaming…</source>
            <translation>{name}：正在流式输出…</translation>
        </message>
        <message>
            <source>{name}: {value}, {count} part(s) streamed{kept}</source>
            <translation>{name}：{value}，已流式输出 {count} 个部分{kept}</translation>
        </message>
        <message>
            <source>stopped after {count} part(s){kept}</source>
            <translation>在 {count} 个部分后停止{kept}</translation>
        </message>
        <message>
            <source>; the last {max_parts} kept</source>
            <translation>；保留最后 {max_parts} 个</translation>
        </message>
        <message>
            <source>(end)</source>
            <translation>（结束）</translation>
        </message>
        <message>
            <source>&lt;b&gt;Waiting at {escape}:&lt;/b&gt; {escape2}</source>
            <translation>&lt;b&gt;等待于 {escape}：&lt;/b&gt; {escape2}</translation>
        </message>
    </context>
    <context>
        <name>replay.dock</name>
        <message>
            <source>Record runs</source>
            <translation>录制运行</translation>
        </message>
        <message>
            <source>Keep every model and tool call of the runs beside their checkpoints, to replay them or save them as tests</source>
            <translation>把运行中的每次模型和工具调用保存在它们的检查点 (checkpoint) 旁边，以便重放或保存为测试</translation>
        </message>
        <message>
            <source>Save as test</source>
            <translation>保存为测试</translation>
        </message>
        <message>
            <source>Write the current thread as a pytest file in tests/ beside the spec</source>
            <translation>把当前线程写成规格 (spec) 旁 tests/ 中的 pytest 文件</translation>
        </message>
        <message>
            <source>{kind} call · {replace}</source>
            <translation>{kind} 调用 · {replace}</translation>
        </message>
        <message>
            <source>step {step}, call {value}: {what}</source>
            <translation>第 {step} 步，第 {value} 次调用：{what}</translation>
        </message>
        <message>
            <source>Thread {thread} has no recording: run it with Record runs on</source>
            <translation>线程 {thread} 没有录制：请在开启“录制运行”时运行它</translation>
        </message>
        <message>
            <source>Pick a checkpoint in Checkpoints to replay from</source>
            <translation>请在“检查点”中选择要从哪个检查点 (checkpoint) 重放</translation>
        </message>
        <message>
            <source> from step {step}</source>
            <translation>，从第 {step} 步</translation>
        </message>
        <message>
            <source>Replaying thread {thread}{where}…</source>
            <translation>正在重放线程 {thread}{where}…</translation>
        </message>
        <message>
            <source>Replay failed: {name__}: {error}</source>
            <translation>重放失败：{name__}：{error}</translation>
        </message>
        <message>
            <source>Save the spec first: its tests go in a tests folder beside it</source>
            <translation>请先保存规格 (spec)：它的测试放在旁边的 tests 文件夹中</translation>
        </message>
        <message>
            <source>A graph handed over by debug() has no file for a test to load: open its program instead</source>
            <translation>由 debug() 交来的图没有可供测试加载的文件：请改为打开它的程序</translation>
        </message>
        <message>
            <source>Cannot save thread {thread} as a test: {exc}</source>
            <translation>无法把线程 {thread} 保存为测试：{exc}</translation>
        </message>
        <message>
            <source>Saved {name}</source>
            <translation>已保存 {name}</translation>
        </message>
        <message>
            <source>Tests</source>
            <translation>测试</translation>
        </message>
    </context>
    <context>
        <name>replay.replay_menu</name>
        <message>
            <source>Changed call: use the recording</source>
            <translation>调用有变：使用录制</translation>
        </message>
        <message>
            <source>Changed call: call it live</source>
            <translation>调用有变：实时调用</translation>
        </message>
        <message>
            <source>Changed call: stop the replay</source>
            <translation>调用有变：停止重放</translation>
        </message>
        <message>
            <source>Replay</source>
            <translation>重放</translation>
        </message>
        <message>
            <source>Run the current thread again on a new thread, its recorded model and tool calls served instead of new ones, and compare the two runs</source>
            <translation>在新线程 (thread) 上再次运行当前线程，用录制的模型和工具调用代替新的调用，并比较两次运行</translation>
        </message>
        <message>
            <source>Replay thread</source>
            <translation>重放线程</translation>
        </message>
        <message>
            <source>Replay from the picked checkpoint</source>
            <translation>从所选检查点 (checkpoint) 重放</translation>
        </message>
        <message>
            <source>Run tools live (serve model calls only)</source>
            <translation>实时运行工具（只提供模型调用）</translation>
        </message>
    </context>
    <context>
        <name>replay.run_diff_panel</name>
        <message>
            <source>Replay a thread, or run a saved test, to compare two runs.</source>
            <translation>重放一个线程或运行一个已保存的测试，以比较两次运行。</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>步</translation>
        </message>
        <message>
            <source>Old</source>
            <translation>旧</translation>
        </message>
        <message>
            <source>New</source>
            <translation>新</translation>
        </message>
        <message>
            <source>the same in every step</source>
            <translation>每一步都相同</translation>
        </message>
        <message>
            <source>Final state</source>
            <translation>最终状态</translation>
        </message>
    </context>
    <context>
        <name>replay.tests_panel</name>
        <message>
            <source>Run all</source>
            <translation>全部运行</translation>
        </message>
        <message>
            <source>Test</source>
            <translation>测试</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>结果</translation>
        </message>
        <message>
            <source>no folder</source>
            <translation>没有文件夹</translation>
        </message>
        <message>
            <source>{len} saved test(s) in {where}</source>
            <translation>{where} 中有 {len} 个已保存的测试</translation>
        </message>
        <message>
            <source>No saved tests in {where}: save a recorded thread as a test.</source>
            <translation>{where} 中没有已保存的测试：请把录制过的线程保存为测试。</translation>
        </message>
        <message>
            <source>not run</source>
            <translation>未运行</translation>
        </message>
        <message>
            <source>Running {len} test(s)…</source>
            <translation>正在运行 {len} 个测试…</translation>
        </message>
        <message>
            <source>{value} passed, {failed} failed</source>
            <translation>{value} 个通过，{failed} 个失败</translation>
        </message>
        <message>
            <source>Run this test</source>
            <translation>运行此测试</translation>
        </message>
        <message>
            <source>Replay it against its recording</source>
            <translation>按它的录制重放</translation>
        </message>
        <message>
            <source>Copy test file path</source>
            <translation>复制测试文件路径</translation>
        </message>
        <message>
            <source>Copy recording path</source>
            <translation>复制录制文件路径</translation>
        </message>
        <message>
            <source>the run differs from the recording (below)</source>
            <translation>运行与录制不同（见下方）</translation>
        </message>
        <message>
            <source>passed</source>
            <translation>通过</translation>
        </message>
    </context>
    <context>
        <name>run.breakpoints_dock</name>
        <message>
            <source>before</source>
            <translation>之前</translation>
        </message>
        <message>
            <source>after</source>
            <translation>之后</translation>
        </message>
        <message>
            <source>on error</source>
            <translation>出错时</translation>
        </message>
        <message>
            <source>node › inside… (agent › tools)</source>
            <translation>节点 › 内部…（agent › tools）</translation>
        </message>
        <message>
            <source>The node; below a subgraph or an agent, the node at each level after ›, e.g. `research › tools` or `agent › PII.before_model`</source>
            <translation>节点；在子图或智能体之内，用 › 隔开每一层的节点，例如 `research › tools` 或 `agent › PII.before_model`</translation>
        </message>
        <message>
            <source>tool (on a tools node)</source>
            <translation>工具（在 tools 节点上）</translation>
        </message>
        <message>
            <source>condition, e.g. len(messages) &gt; 4</source>
            <translation>条件，例如 len(messages) &gt; 4</translation>
        </message>
        <message>
            <source>every</source>
            <translation>每次</translation>
        </message>
        <message>
            <source>Pause only on this visit of the node in a run (1 the first); every: each visit</source>
            <translation>只在一次运行中第几次访问该节点时暂停（1 为第一次）；每次：每次访问</translation>
        </message>
        <message>
            <source>Pause on any error</source>
            <translation>任何错误时暂停</translation>
        </message>
        <message>
            <source>A failing task waits: its input is shown, edit it and retry</source>
            <translation>失败的任务会等待：显示它的输入，可编辑后重试</translation>
        </message>
        <message>
            <source>Add</source>
            <translation>添加</translation>
        </message>
        <message>
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <source>Paused at a breakpoint</source>
            <translation>在断点处暂停</translation>
        </message>
        <message>
            <source>Continue</source>
            <translation>继续</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>重试</translation>
        </message>
        <message>
            <source>Run the failed step again, with the input as edited below</source>
            <translation>用下方编辑后的输入重新运行失败的这一步</translation>
        </message>
        <message>
            <source>Let it fail</source>
            <translation>让它失败</translation>
        </message>
        <message>
            <source>A safe expression on the task's input; empty: always</source>
            <translation>针对任务输入的安全表达式；留空：总是暂停</translation>
        </message>
        <message>
            <source>Pause only on this visit (1 the first); empty: every visit</source>
            <translation>只在第几次访问时暂停（1 为第一次）；留空：每次访问</translation>
        </message>
        <message>
            <source>The hit count {hit!r} is not a whole number (empty: every visit)</source>
            <translation>命中次数 {hit!r} 不是整数（留空：每次访问）</translation>
        </message>
        <message>
            <source>Enable breakpoint {at} {where}</source>
            <translation>启用断点：{where} {at}</translation>
        </message>
        <message>
            <source>Disable breakpoint {at} {where}</source>
            <translation>停用断点：{where} {at}</translation>
        </message>
        <message>
            <source>Edit breakpoint {at} {where}</source>
            <translation>编辑断点：{where} {at}</translation>
        </message>
        <message>
            <source>Name the node to pause at (below a subgraph or agent: node › inside)</source>
            <translation>请填写要暂停的节点（子图或智能体之内：节点 › 内部节点）</translation>
        </message>
        <message>
            <source>* (any node) is for pausing on errors: choose “on error”</source>
            <translation>*（任意节点）用于出错时暂停：请选择“出错时”</translation>
        </message>
        <message>
            <source>This graph has no node {node!r}</source>
            <translation>此图没有节点 {node!r}</translation>
        </message>
        <message>
            <source>That breakpoint is already listed ({where})</source>
            <translation>该断点已在列表中（{where}）</translation>
        </message>
        <message>
            <source>Add breakpoint {at} {where}</source>
            <translation>添加断点：{where} {at}</translation>
        </message>
        <message>
            <source>Select the breakpoints to remove first</source>
            <translation>请先选择要移除的断点</translation>
        </message>
        <message>
            <source>Remove breakpoints</source>
            <translation>移除断点</translation>
        </message>
        <message>
            <source>Remove breakpoint</source>
            <translation>移除断点</translation>
        </message>
        <message>
            <source>Do not pause on errors</source>
            <translation>出错时不暂停</translation>
        </message>
        <message>
            <source>{text} (kept with the document; the graph is not modified)</source>
            <translation>{text}（随文档保存；图本身未被修改）</translation>
        </message>
        <message>
            <source>, a call of {tool}</source>
            <translation>，对 {tool} 的调用</translation>
        </message>
        <message>
            <source>Paused {at} {where} (visit {visit}{call})</source>
            <translation>已暂停：{where} {at}（第 {visit} 次访问{call}）</translation>
        </message>
        <message>
            <source>The condition holds: {condition}</source>
            <translation>条件成立：{condition}</translation>
        </message>
        <message>
            <source>Paused because {problem}</source>
            <translation>已暂停，因为 {problem}</translation>
        </message>
        <message>
            <source>It failed: {error}</source>
            <translation>它失败了：{error}</translation>
        </message>
        <message>
            <source>Edit its input below and retry the step, or let it fail.</source>
            <translation>在下方编辑它的输入并重试这一步，或让它失败。</translation>
        </message>
        <message>
            <source>Its input (edit it, then Continue: the task runs with the edit):</source>
            <translation>它的输入（编辑后点“继续”：任务将使用编辑后的输入运行）：</translation>
        </message>
        <message>
            <source>Its input and what it wrote:</source>
            <translation>它的输入和它写入的内容：</translation>
        </message>
        <message>
            <source>The input is not JSON: {exc}</source>
            <translation>输入不是 JSON：{exc}</translation>
        </message>
        <message>
            <source>Cannot keep that breakpoint: {field} {message}</source>
            <translation>无法保留该断点：{field} {message}</translation>
        </message>
        <message>
            <source>The condition is not a safe expression: {exc}</source>
            <translation>条件不是安全表达式：{exc}</translation>
        </message>
        <message>
            <source>any node</source>
            <translation>任意节点</translation>
        </message>
        <message>
            <source>Breakpoints</source>
            <translation>断点</translation>
        </message>
    </context>
    <context>
        <name>run.channels_panel</name>
        <message>
            <source>No run yet: Step or Run to see the channels.</source>
            <translation>尚未运行：单步或运行后可以看到通道 (channel)。</translation>
        </message>
        <message>
            <source>Copy value (JSON)</source>
            <translation>复制值 (JSON)</translation>
        </message>
        <message>
            <source>Copy channel name</source>
            <translation>复制通道名</translation>
        </message>
    </context>
    <context>
        <name>run.controller</name>
        <message>
            <source>Restart from the last checkpoint</source>
            <translation>从最后一个检查点 (checkpoint) 重新开始</translation>
        </message>
        <message>
            <source>Restart from the start</source>
            <translation>从头重新开始</translation>
        </message>
        <message>
            <source>Run input</source>
            <translation>运行输入</translation>
        </message>
        <message>
            <source>Threads</source>
            <translation>线程 (thread)</translation>
        </message>
        <message>
            <source>Channels</source>
            <translation>通道 (channel)</translation>
        </message>
        <message>
            <source>Checkpoints</source>
            <translation>检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>Superstep trace</source>
            <translation>超步 (superstep) 轨迹</translation>
        </message>
        <message>
            <source>Checkpoint diff</source>
            <translation>检查点 (checkpoint) 差异</translation>
        </message>
        <message>
            <source>Events</source>
            <translation>事件</translation>
        </message>
        <message>
            <source>Deep agent</source>
            <translation>深度智能体 (deep agent)</translation>
        </message>
        <message>
            <source>Ready to run</source>
            <translation>可以运行</translation>
        </message>
        <message>
            <source>No run yet: Step or Run to see the channels.</source>
            <translation>尚未运行：单步或运行后可以看到通道 (channel)。</translation>
        </message>
        <message>
            <source>The graph changed while thread {live} is paused: the paused run still has the old graph. Restart it with the new graph from its last checkpoint, or from the start.</source>
            <translation>线程 (thread) {live} 暂停期间图已改变：暂停的运行仍使用旧图。请用新图从它的最后一个检查点 (checkpoint) 或从头重新开始。</translation>
        </message>
        <message>
            <source>The graph changed: restart the paused run (banner above the canvas)</source>
            <translation>图已改变：请重新开始暂停的运行（画布上方的横幅）</translation>
        </message>
        <message>
            <source>A run is in progress: Stop it first</source>
            <translation>有运行正在进行：请先停止它</translation>
        </message>
        <message>
            <source>The context is not JSON (Run input dock)</source>
            <translation>上下文不是 JSON（“运行输入”面板）</translation>
        </message>
        <message>
            <source>Running on thread {thread_id}…</source>
            <translation>正在线程 (thread) {thread_id} 上运行…</translation>
        </message>
        <message>
            <source>The graph changed: restart the paused run first (banner above the canvas)</source>
            <translation>图已改变：请先重新开始暂停的运行（画布上方的横幅）</translation>
        </message>
        <message>
            <source>The run waits for an interrupt answer: answer it in the panel above the canvas</source>
            <translation>运行在等待中断 (interrupt) 的回答：请在画布上方的面板中作答</translation>
        </message>
        <message>
            <source>Nothing to continue: Run or Step starts a run</source>
            <translation>没有可继续的运行：运行或单步会开始一次运行</translation>
        </message>
        <message>
            <source>Stopping after this superstep…</source>
            <translation>本超步 (superstep) 结束后停止…</translation>
        </message>
        <message>
            <source>Run abandoned (its checkpoints stay in the history)</source>
            <translation>运行已放弃（它的检查点 (checkpoint) 仍在历史中）</translation>
        </message>
        <message>
            <source>Nothing saved on this thread yet: Step starts it with the new graph</source>
            <translation>此线程上还没有保存任何内容：单步会用新图开始它</translation>
        </message>
        <message>
            <source>its first checkpoint</source>
            <translation>它的第一个检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>its last checkpoint</source>
            <translation>它的最后一个检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>Thread {thread} restarted with the new graph from {where}: Step or Continue</source>
            <translation>线程 {thread} 已用新图从{where}重新开始：请单步或继续</translation>
        </message>
        <message>
            <source>Interrupt answered</source>
            <translation>中断 (interrupt) 已回答</translation>
        </message>
        <message>
            <source>resumed with {value}</source>
            <translation>已用 {value} 恢复</translation>
        </message>
        <message>
            <source>Resuming…</source>
            <translation>正在恢复…</translation>
        </message>
        <message>
            <source>{what} from step {step} ({value})…</source>
            <translation>{what}，从第 {step} 步（{value}）…</translation>
        </message>
        <message>
            <source>A run is in progress: compare when it pauses</source>
            <translation>有运行正在进行：请在它暂停时再比较</translation>
        </message>
        <message>
            <source>Inside {ns_label}: its channels after its last barrier</source>
            <translation>在 {ns_label} 内部：它最后一个屏障 (barrier) 之后的通道 (channel)</translation>
        </message>
        <message>
            <source> at step {step} ({value})</source>
            <translation>，第 {step} 步（{value}）</translation>
        </message>
        <message>
            <source>Thread {thread_id}{where}; highlighted: what that step changed (old → new)</source>
            <translation>线程 {thread_id}{where}；高亮：那一步改变的内容（旧 → 新）</translation>
        </message>
        <message>
            <source> — Step or Continue for more</source>
            <translation> — 单步或继续以运行更多</translation>
        </message>
        <message>
            <source>Step {step}: ran {value}{more}</source>
            <translation>第 {step} 步：运行了 {value}{more}</translation>
        </message>
        <message>
            <source>after step {step}</source>
            <translation>第 {step} 步之后</translation>
        </message>
        <message>
            <source>Thread {thread_id} {where}; highlighted: what the last barrier changed (old → new)</source>
            <translation>线程 {thread_id} {where}；高亮：最后一个屏障 (barrier) 改变的内容（旧 → 新）</translation>
        </message>
        <message>
            <source>Paused: {value} raised NodeInterrupt — Edit the state…, then it runs again</source>
            <translation>已暂停：{value} 抛出了 NodeInterrupt — 点“编辑状态…”改动状态后它会再次运行</translation>
        </message>
        <message>
            <source>Paused: {value} is waiting for an answer</source>
            <translation>已暂停：{value} 在等待回答</translation>
        </message>
        <message>
            <source>The last run on thread {thread_id} failed in {node}: {error} — Continue runs it again</source>
            <translation>线程 {thread_id} 上一次运行在 {node} 失败：{error} — 继续（Continue）会再次运行它</translation>
        </message>
        <message>
            <source>Paused before {join}: Continue runs on</source>
            <translation>在 {join} 之前暂停：继续会接着运行</translation>
        </message>
        <message>
            <source>Stopped between steps (the last step's work is saved): Continue finishes it</source>
            <translation>在两步之间停止（上一步的工作已保存）：继续会把它跑完</translation>
        </message>
        <message>
            <source>Finished: {total} checkpoints on thread {thread_id}</source>
            <translation>已完成：线程 (thread) {thread_id} 上有 {total} 个检查点 (checkpoint)</translation>
        </message>
        <message>
            <source> inside </source>
            <translation> 内的 </translation>
        </message>
        <message>
            <source>Paused before {where} (visit {visit}): the Breakpoints dock shows its input</source>
            <translation>已在 {where} 之前暂停（第 {visit} 次访问）：“断点”停靠窗口显示它的输入</translation>
        </message>
        <message>
            <source>Paused after {where} (visit {visit}): the Breakpoints dock shows its input</source>
            <translation>已在 {where} 之后暂停（第 {visit} 次访问）：“断点”停靠窗口显示它的输入</translation>
        </message>
        <message>
            <source>Paused on an error in {where} (visit {visit}): the Breakpoints dock shows its input</source>
            <translation>已在 {where} 出错时暂停（第 {visit} 次访问）：“断点”停靠窗口显示它的输入</translation>
        </message>
        <message>
            <source>Retrying the step…</source>
            <translation>正在重试这一步…</translation>
        </message>
        <message>
            <source>Running on…</source>
            <translation>继续运行…</translation>
        </message>
        <message>
            <source>Run failed — {message}</source>
            <translation>运行失败 — {message}</translation>
        </message>
    </context>
    <context>
        <name>run.deep_agent_panel</name>
        <message>
            <source>graph</source>
            <translation>图</translation>
        </message>
        <message>
            <source>to-dos</source>
            <translation>待办事项</translation>
        </message>
        <message>
            <source>{where}, step {step}: {what}</source>
            <translation>{where}，第 {step} 步：{what}</translation>
        </message>
        <message>
            <source>no files yet</source>
            <translation>还没有文件</translation>
        </message>
        <message>
            <source>No deep agent has run yet: its files and to-dos show here.</source>
            <translation>还没有深度智能体 (deep agent) 运行过：它的文件和待办事项会显示在这里。</translation>
        </message>
        <message>
            <source>Contents</source>
            <translation>内容</translation>
        </message>
        <message>
            <source>Changed by this step</source>
            <translation>本步改变的</translation>
        </message>
        <message>
            <source>{value} after step {step}: {n} file{value2}; ● changed by this step</source>
            <translation>{value}，第 {step} 步之后：{n} 个文件{value2}；● 表示本步改变</translation>
        </message>
        <message>
            <source>The graph</source>
            <translation>图</translation>
        </message>
        <message>
            <source>{text}  (in progress)</source>
            <translation>{text}  （进行中）</translation>
        </message>
        <message>
            <source>({path} was deleted)</source>
            <translation>（{path} 已删除）</translation>
        </message>
        <message>
            <source>{path} after step {step}</source>
            <translation>{path}，第 {step} 步之后</translation>
        </message>
        <message>
            <source>(unchanged by this step)</source>
            <translation>（本步未改变）</translation>
        </message>
    </context>
    <context>
        <name>run.diff</name>
        <message>
            <source>a checkpoint is no longer in the database</source>
            <translation>某个检查点 (checkpoint) 已不在数据库中</translation>
        </message>
    </context>
    <context>
        <name>run.diff_panel</name>
        <message>
            <source>Ctrl+click two checkpoints in Checkpoints to compare them.</source>
            <translation>在“检查点”中按住 Ctrl 单击两个检查点 (checkpoint) 以比较它们。</translation>
        </message>
        <message>
            <source>What</source>
            <translation>功能</translation>
        </message>
        <message>
            <source>Old</source>
            <translation>旧</translation>
        </message>
        <message>
            <source>New</source>
            <translation>新</translation>
        </message>
        <message>
            <source>Step {old_step} ({value}) → step {new_step} ({value2}): {len} channel(s) differ, {unchanged} the same</source>
            <translation>第 {old_step} 步（{value}）→ 第 {new_step} 步（{value2}）：{len} 个通道 (channel) 不同，{unchanged} 个相同</translation>
        </message>
        <message>
            <source>Channels changed ({len})</source>
            <translation>改变的通道 (channel)（{len}）</translation>
        </message>
        <message>
            <source>Next nodes</source>
            <translation>下一批节点</translation>
        </message>
        <message>
            <source>Pending writes</source>
            <translation>待处理写入 (pending writes)</translation>
        </message>
    </context>
    <context>
        <name>run.events_panel</name>
        <message>
            <source>Copy line</source>
            <translation>复制这一行</translation>
        </message>
        <message>
            <source>Clear</source>
            <translation>清空</translation>
        </message>
        <message>
            <source>Show</source>
            <translation>显示</translation>
        </message>
    </context>
    <context>
        <name>run.fork_dialog</name>
        <message>
            <source>Fork with edited state</source>
            <translation>用编辑后的状态分叉 (fork)</translation>
        </message>
    </context>
    <context>
        <name>run.history_panel</name>
        <message>
            <source>the current tip (what Continue and Step carry on from)
</source>
            <translation>当前末端（继续和单步从这里接着运行）
</translation>
        </message>
        <message>
            <source>Pick a checkpoint to see its state</source>
            <translation>选择一个检查点 (checkpoint) 查看它的状态</translation>
        </message>
        <message>
            <source>Pick a checkpoint to see its state; edit it and Fork.</source>
            <translation>选择一个检查点 (checkpoint) 查看它的状态；编辑后分叉 (Fork)。</translation>
        </message>
        <message>
            <source>Replay from here</source>
            <translation>从这里重放</translation>
        </message>
        <message>
            <source>Fork with edited state</source>
            <translation>用编辑后的状态分叉 (fork)</translation>
        </message>
        <message>
            <source>Run again from the chosen checkpoint (its next tasks re-run)</source>
            <translation>从所选检查点 (checkpoint) 再次运行（它的下一批任务会重新运行）</translation>
        </message>
        <message>
            <source>Click a checkpoint to see its state, double-click it to edit the state and fork; Ctrl+click a second one to compare them</source>
            <translation>单击一个检查点 (checkpoint) 查看它的状态，双击它以编辑状态并分叉 (fork)；按住 Ctrl 单击第二个以比较它们</translation>
        </message>
        <message>
            <source>update_state on the chosen checkpoint with the edited values, then continue</source>
            <translation>用编辑后的值对所选检查点 (checkpoint) 执行 update_state，然后继续</translation>
        </message>
        <message>
            <source>Show older</source>
            <translation>显示更早的</translation>
        </message>
        <message>
            <source>Read the next page of older checkpoints from the database</source>
            <translation>从数据库读取下一页更早的检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>the newest {len} of {total}</source>
            <translation>{total} 个中最新的 {len} 个</translation>
        </message>
        <message>
            <source>Thread {thread}: {shown} checkpoint(s)</source>
            <translation>线程 (thread) {thread}：{shown} 个检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>, {forks} fork(s)</source>
            <translation>，{forks} 个分叉 (fork)</translation>
        </message>
        <message>
            <source>; ★ marks the tip</source>
            <translation>；★ 标出末端</translation>
        </message>
        <message>
            <source>State at step {step} ({value}): edit, then Fork</source>
            <translation>第 {step} 步（{value}）的状态：编辑后分叉 (Fork)</translation>
        </message>
        <message>
            <source>Edit its state…</source>
            <translation>编辑它的状态…</translation>
        </message>
        <message>
            <source>Its state in a larger editor, to change values and fork</source>
            <translation>在更大的编辑器中打开它的状态，修改值并分叉 (fork)</translation>
        </message>
        <message>
            <source>Compare with the tip</source>
            <translation>与末端比较</translation>
        </message>
        <message>
            <source>Copy checkpoint id</source>
            <translation>复制检查点 (checkpoint) id</translation>
        </message>
        <message>
            <source>State at step {step} ({value})</source>
            <translation>第 {step} 步（{value}）的状态</translation>
        </message>
        <message>
            <source>The edited state</source>
            <translation>编辑后的状态</translation>
        </message>
        <message>
            <source>Nothing edited: change a value, then Fork</source>
            <translation>没有编辑：请修改一个值后再分叉 (Fork)</translation>
        </message>
    </context>
    <context>
        <name>run.input_panels</name>
        <message>
            <source>Saved input</source>
            <translation>已保存的输入</translation>
        </message>
        <message>
            <source>optional JSON, e.g. {"user_id": "1"}</source>
            <translation>可选 JSON，例如 {"user_id": "1"}</translation>
        </message>
        <message>
            <source>The run's Runtime.context, as JSON (empty: none)</source>
            <translation>本次运行的 Runtime.context，JSON 格式（留空：无）</translation>
        </message>
        <message>
            <source>Context</source>
            <translation>上下文</translation>
        </message>
        <message>
            <source>Type another</source>
            <translation>输入其他</translation>
        </message>
        <message>
            <source>Replace the script's input with one typed as JSON</source>
            <translation>用以 JSON 输入的内容替换脚本的输入</translation>
        </message>
        <message>
            <source>the script's input</source>
            <translation>脚本的输入</translation>
        </message>
        <message>
            <source>(none)</source>
            <translation>（无）</translation>
        </message>
        <message>
            <source>The script's own input (Python objects), of its first of {runs} runs</source>
            <translation>脚本自己的输入（Python 对象），来自其 {runs} 次运行中的第一次</translation>
        </message>
        <message>
            <source>The script's own input, of its first of {runs} runs</source>
            <translation>脚本自己的输入，来自其 {runs} 次运行中的第一次</translation>
        </message>
        <message>
            <source>The script's own input (Python objects)</source>
            <translation>脚本自己的输入（Python 对象）</translation>
        </message>
        <message>
            <source>The script's own input</source>
            <translation>脚本自己的输入</translation>
        </message>
        <message>
            <source>The script's own input, Python objects shown read-only: Run and Step use these objects.</source>
            <translation>脚本自己的输入，以只读方式显示的 Python 对象：运行和单步使用的就是这些对象。</translation>
        </message>
        <message>
            <source>The script's own input: Run and Step start from it; edit it to run another.</source>
            <translation>脚本自己的输入：运行和单步从它开始；编辑它以运行其他输入。</translation>
        </message>
        <message>
            <source>The script ran this graph {runs} times: this is its first run's input.</source>
            <translation>脚本运行了此图 {runs} 次：这是其第一次运行的输入。</translation>
        </message>
        <message>
            <source>The context is not JSON: {exc}</source>
            <translation>上下文不是 JSON：{exc}</translation>
        </message>
        <message>
            <source>The input state</source>
            <translation>输入状态</translation>
        </message>
        <message>
            <source>The input is not JSON: {exc}</source>
            <translation>输入不是 JSON：{exc}</translation>
        </message>
        <message>
            <source>Answer as JSON: true, "text", {"approved": true}…</source>
            <translation>以 JSON 作答：true、"text"、{"approved": true}…</translation>
        </message>
        <message>
            <source>Resume</source>
            <translation>恢复</translation>
        </message>
        <message>
            <source>Edit the state…</source>
            <translation>编辑状态…</translation>
        </message>
        <message>
            <source>The thread's state in an editor: change what the node checks, then Fork with edited state runs the node again</source>
            <translation>在编辑器中打开线程的状态：改动节点检查的值，再点“用编辑后的状态分叉 (fork)”，节点会再次运行</translation>
        </message>
        <message>
            <source>No answer reaches it: it runs again once its state is changed</source>
            <translation>回答传不到它：状态改动后它才会再次运行</translation>
        </message>
        <message>
            <source>Approve all</source>
            <translation>全部批准</translation>
        </message>
        <message>
            <source>Reject all</source>
            <translation>全部拒绝</translation>
        </message>
        <message>
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <source>Answer every tool call of this human-in-the-loop review at once</source>
            <translation>一次回答此人工审核中的所有工具调用</translation>
        </message>
        <message>
            <source>{node} raised NodeInterrupt{many}</source>
            <translation>{node} 抛出了 NodeInterrupt{many}</translation>
        </message>
        <message>
            <source>{node} is waiting for an answer{many}</source>
            <translation>{node} 在等待回答{many}</translation>
        </message>
        <message>
            <source>The answer is not JSON: {exc}</source>
            <translation>回答不是 JSON：{exc}</translation>
        </message>
    </context>
    <context>
        <name>run.overlay</name>
        <message>
            <source>(no state written)</source>
            <translation>（没有写入状态）</translation>
        </message>
        <message>
            <source>{node_id} wrote {channel} in the last step</source>
            <translation>{node_id} 在上一步写入了 {channel}</translation>
        </message>
    </context>
    <context>
        <name>run.runner</name>
        <message>
            <source>Cannot compile: </source>
            <translation>无法编译：</translation>
        </message>
        <message>
            <source>cannot create {parent} ({exc})</source>
            <translation>无法创建 {parent}（{exc}）</translation>
        </message>
        <message>
            <source>Cannot keep checkpoints: {why}</source>
            <translation>无法保存检查点 (checkpoint)：{why}</translation>
        </message>
        <message>
            <source>No checkpoint database is open</source>
            <translation>没有打开检查点 (checkpoint) 数据库</translation>
        </message>
        <message>
            <source>Forked at a past checkpoint with {join} edited</source>
            <translation>已在过去的检查点 (checkpoint) 处分叉，修改了 {join}</translation>
        </message>
        <message>
            <source>Stopped after the current superstep; Continue picks it up</source>
            <translation>已在当前超步 (superstep) 后停止；继续会接着运行</translation>
        </message>
        <message>
            <source>Drained after the superstep ({reason}): its checkpoint is saved; Continue runs on</source>
            <translation>已在超步 (superstep) 后排空（{reason}）：检查点 (checkpoint) 已保存；继续会接着运行</translation>
        </message>
    </context>
    <context>
        <name>run.thread_control</name>
        <message>
            <source>A run is in progress: Stop it first</source>
            <translation>有运行正在进行：请先停止它</translation>
        </message>
        <message>
            <source>New thread {thread_id}</source>
            <translation>新线程 {thread_id}</translation>
        </message>
        <message>
            <source>Thread {thread_id} is now shown as {value}</source>
            <translation>线程 {thread_id} 现在显示为 {value}</translation>
        </message>
        <message>
            <source>Deleted thread {thread_id}</source>
            <translation>已删除线程 {thread_id}</translation>
        </message>
    </context>
    <context>
        <name>run.threads_panel</name>
        <message>
            <source>Rename</source>
            <translation>重命名</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Change the name shown (the checkpoints keep their thread id)</source>
            <translation>修改显示的名称（检查点 (checkpoint) 保留它们的线程 id）</translation>
        </message>
        <message>
            <source>Delete the thread and all its checkpoints</source>
            <translation>删除该线程及其所有检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>thread id {thread_id}</source>
            <translation>线程 id {thread_id}</translation>
        </message>
        <message>
            <source>Show this thread</source>
            <translation>显示此线程</translation>
        </message>
        <message>
            <source>Its checkpoints and channels; Run, Step and Continue go on it</source>
            <translation>它的检查点 (checkpoint) 和通道 (channel)；运行、单步和继续都在它上面进行</translation>
        </message>
        <message>
            <source>Delete…</source>
            <translation>删除…</translation>
        </message>
        <message>
            <source>Copy thread id</source>
            <translation>复制线程 id</translation>
        </message>
        <message>
            <source>Delete thread</source>
            <translation>删除线程</translation>
        </message>
        <message>
            <source>Delete thread {thread_id} and all its checkpoints?</source>
            <translation>删除线程 {thread_id} 及其所有检查点 (checkpoint)？</translation>
        </message>
    </context>
    <context>
        <name>run.toolbar</name>
        <message>
            <source>Start a run with the input and run it to the end (F5)</source>
            <translation>用输入开始一次运行并运行到结束（F5）</translation>
        </message>
        <message>
            <source>Run one superstep (F10)</source>
            <translation>运行一个超步 (superstep)（F10）</translation>
        </message>
        <message>
            <source>Run the paused run (or a breakpoint) to the end</source>
            <translation>把暂停的运行（或断点）运行到结束</translation>
        </message>
        <message>
            <source>Stop after the current superstep</source>
            <translation>在当前超步 (superstep) 后停止</translation>
        </message>
        <message>
            <source> Thread </source>
            <translation> 线程 </translation>
        </message>
        <message>
            <source>The thread runs write checkpoints to; pick one to see its history</source>
            <translation>运行写入检查点 (checkpoint) 的线程 (thread)；选择一个查看它的历史</translation>
        </message>
        <message>
            <source>Run</source>
            <translation>运行</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>步</translation>
        </message>
        <message>
            <source>Continue</source>
            <translation>继续</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>New thread</source>
            <translation>新线程 (thread)</translation>
        </message>
        <message>
            <source>A fresh thread with no history</source>
            <translation>一个没有历史的新线程</translation>
        </message>
        <message>
            <source> Durability </source>
            <translation> 持久化 </translation>
        </message>
        <message>
            <source>When checkpoints are saved: async (beside the next step), sync (before the next step), exit (once, when the run ends)</source>
            <translation>检查点 (checkpoint) 何时保存：async（与下一步同时）、sync（下一步之前）、exit（运行结束时保存一次）</translation>
        </message>
        <message>
            <source>Ready to run</source>
            <translation>可以运行</translation>
        </message>
    </context>
    <context>
        <name>run.trace_model</name>
        <message>
            <source>{name__}: {error} — retrying in {delay:.2f} s</source>
            <translation>{name__}：{error} — {delay:.2f} 秒后重试</translation>
        </message>
        <message>
            <source>Checkpoint saved</source>
            <translation>检查点已保存</translation>
        </message>
        <message>
            <source>Plan</source>
            <translation>计划 (Plan)</translation>
        </message>
        <message>
            <source>{len} task(s): {names}</source>
            <translation>{len} 个任务：{names}</translation>
        </message>
        <message>
            <source>woken by {woke}</source>
            <translation>被 {woke} 唤醒</translation>
        </message>
        <message>
            <source>Send packet: {show}</source>
            <translation>Send 数据包：{show}</translation>
        </message>
        <message>
            <source> (cached)</source>
            <translation>（缓存）</translation>
        </message>
        <message>
            <source> (middleware hook)</source>
            <translation>（中间件钩子）</translation>
        </message>
        <message>
            <source>{name} raised</source>
            <translation>{name} 抛出异常</translation>
        </message>
        <message>
            <source>{name} interrupted</source>
            <translation>{name} 被中断 (interrupt)</translation>
        </message>
        <message>
            <source>interrupt raised: {values}</source>
            <translation>抛出中断 (interrupt)：{values}</translation>
        </message>
        <message>
            <source>{name} wrote{cached}{hook}</source>
            <translation>{name} 写入{cached}{hook}</translation>
        </message>
        <message>
            <source>read from the node's cache (CachePolicy): the node did not run</source>
            <translation>从节点缓存读取（CachePolicy）：节点没有运行</translation>
        </message>
        <message>
            <source>Pending writes saved</source>
            <translation>待处理写入已保存</translation>
        </message>
        <message>
            <source>{len} task(s), before the checkpoint</source>
            <translation>{len} 个任务，在检查点 (checkpoint) 之前</translation>
        </message>
        <message>
            <source>no writes</source>
            <translation>没有写入</translation>
        </message>
        <message>
            <source> in {where}</source>
            <translation>，在 {where} 中</translation>
        </message>
        <message>
            <source>Step {step}{where}</source>
            <translation>第 {step} 步{where}</translation>
        </message>
        <message>
            <source>nothing</source>
            <translation>无</translation>
        </message>
        <message>
            <source>runs {names}</source>
            <translation>运行 {names}</translation>
        </message>
        <message>
            <source>{source} checkpoint</source>
            <translation>{source} 检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>{name} attempt {attempt} failed</source>
            <translation>{name} 第 {attempt} 次尝试失败</translation>
        </message>
        <message>
            <source>input</source>
            <translation>输入（input）</translation>
        </message>
        <message>
            <source>Barrier</source>
            <translation>屏障 (Barrier)</translation>
        </message>
        <message>
            <source>{len} channel(s) updated</source>
            <translation>{len} 个通道已更新</translation>
        </message>
        <message>
            <source>{old} → {new}   (v{short_version} → v{short_version2})</source>
            <translation>{old} → {new}   (v{short_version} → v{short_version2})</translation>
        </message>
    </context>
    <context>
        <name>run.trace_panel</name>
        <message>
            <source>Whole run</source>
            <translation>整个运行</translation>
        </message>
        <message>
            <source>Step into the inner graph of a subgraph or agent node (its supersteps, channels and checkpoints); double-click a task that ran one</source>
            <translation>进入子图 (subgraph) 或智能体节点的内部图（它的超步 (superstep)、通道 (channel) 和检查点 (checkpoint)）；双击运行过内部图的任务</translation>
        </message>
        <message>
            <source>Show</source>
            <translation>显示</translation>
        </message>
        <message>
            <source>{ns_label} (inner graph, {lower})</source>
            <translation>{ns_label}（内部图，{lower}）</translation>
        </message>
        <message>
            <source>Step into its inner graph</source>
            <translation>进入它的内部图</translation>
        </message>
        <message>
            <source>Only this subgraph's or agent's supersteps, channels and checkpoints</source>
            <translation>只显示此子图或智能体的超步 (superstep)、通道 (channel) 和检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>Back to the whole run</source>
            <translation>回到整个运行</translation>
        </message>
        <message>
            <source>Expand all below</source>
            <translation>展开下方全部</translation>
        </message>
        <message>
            <source>Copy line</source>
            <translation>复制这一行</translation>
        </message>
    </context>
    <context>
        <name>run.user_frames</name>
        <message>
            <source>({count} frames of the studio and engine above your code left out)</source>
            <translation>（省略了你的代码之上 {count} 个属于工作室和引擎的栈帧）</translation>
        </message>
        <message>
            <source>at {file}, line {line}, in {function}: {code}</source>
            <translation>位于 {file} 第 {line} 行，{function} 中：{code}</translation>
        </message>
    </context>
    <context>
        <name>run.widgets</name>
        <message>
            <source>{what} is not JSON: {exc}</source>
            <translation>{what} 不是 JSON：{exc}</translation>
        </message>
        <message>
            <source>{what} must be a JSON object</source>
            <translation>{what} 必须是 JSON 对象</translation>
        </message>
    </context>
    <context>
        <name>timeline.dock</name>
        <message>
            <source>Scrub through the supersteps (or click, drag, ← → on the timeline)</source>
            <translation>拖动浏览各个超步 (superstep)（或在时间线上点击、拖动、按 ← →）</translation>
        </message>
        <message>
            <source>No run yet</source>
            <translation>尚无运行</translation>
        </message>
        <message>
            <source>Path</source>
            <translation>路径</translation>
        </message>
        <message>
            <source>Draw on the canvas the nodes and edges the run went through up to the scrubbed step, with how many times</source>
            <translation>在画布上画出运行到所选步为止经过的节点和边，以及经过的次数</translation>
        </message>
        <message>
            <source>Fit</source>
            <translation>适应</translation>
        </message>
        <message>
            <source>No run of thread {thread} in this session: Run, Step or a re-run draws one</source>
            <translation>本次会话中线程 (thread) {thread} 没有运行：运行、单步或重新运行会画出一次</translation>
        </message>
        <message>
            <source>nothing</source>
            <translation>无</translation>
        </message>
        <message>
            <source>Step {step} ({at} of {count}): ran {names} in {seconds}</source>
            <translation>第 {step} 步（第 {at} 个，共 {count} 个）：运行了 {names}，用时 {seconds}</translation>
        </message>
        <message>
            <source>After step {step}: the channels the run changed up to it (its checkpoint is not saved)</source>
            <translation>第 {step} 步之后：运行到此为止改变的通道 (channel)（它的检查点 (checkpoint) 未保存）</translation>
        </message>
        <message>
            <source>Fork the run from the checkpoint before this task, on a new thread</source>
            <translation>从此任务之前的检查点 (checkpoint) 分叉 (fork) 这次运行，放在新线程 (thread) 上</translation>
        </message>
        <message>
            <source>Re-run from {where}: calls live</source>
            <translation>从 {where} 重新运行：实时调用</translation>
        </message>
        <message>
            <source>Re-run from {where}: calls from the recording</source>
            <translation>从 {where} 重新运行：调用来自录制</translation>
        </message>
        <message>
            <source>Re-run from {where} with edited state…</source>
            <translation>用编辑后的状态从 {where} 重新运行…</translation>
        </message>
        <message>
            <source>A run is in progress: re-run when it has finished</source>
            <translation>有运行正在进行：请在它结束后再重新运行</translation>
        </message>
        <message>
            <source>The checkpoint before this task is not in this run (not saved with durability "exit", or copied into a re-run's thread)</source>
            <translation>此任务之前的检查点 (checkpoint) 不在这次运行中（以 durability "exit" 运行时未保存，或已复制到重新运行的线程中）</translation>
        </message>
        <message>
            <source>Re-run with edited state</source>
            <translation>用编辑后的状态重新运行</translation>
        </message>
        <message>
            <source>State updates applied before {where} runs again (a JSON object):</source>
            <translation>在 {where} 重新运行之前应用的状态更新（一个 JSON 对象）：</translation>
        </message>
        <message>
            <source>The state edits</source>
            <translation>状态编辑</translation>
        </message>
        <message>
            <source>Re-running thread {source} from {where} (step {step}), calls live…</source>
            <translation>正在从 {where}（第 {step} 步）重新运行线程 {source}，实时调用…</translation>
        </message>
        <message>
            <source>Re-running thread {source} from {where} (step {step}), calls recorded…</source>
            <translation>正在从 {where}（第 {step} 步）重新运行线程 {source}，调用来自录制…</translation>
        </message>
        <message>
            <source>Re-run from {where} failed: {kind}: {error}</source>
            <translation>从 {where} 重新运行失败：{kind}: {error}</translation>
        </message>
        <message>
            <source>Re-ran {where} and what follows as thread {thread} (ran {ran}): </source>
            <translation>已把 {where} 及其后续作为线程 {thread} 重新运行（运行了 {ran}）：</translation>
        </message>
        <message>
            <source>Timeline</source>
            <translation>时间线</translation>
        </message>
    </context>
    <context>
        <name>timeline.path_overlay</name>
        <message>
            <source>{node} ran {count} time(s) up to this superstep</source>
            <translation>到这个超步 (superstep) 为止，{node} 运行了 {count} 次</translation>
        </message>
        <message>
            <source>{source} → {target} taken {count} time(s) up to this superstep</source>
            <translation>到这个超步 (superstep) 为止，{source} → {target} 经过了 {count} 次</translation>
        </message>
    </context>
    <context>
        <name>timeline.rerun</name>
        <message>
            <source>{served} call(s) served from the recording, {live} made live</source>
            <translation>{served} 个调用来自录制，{live} 个实时调用</translation>
        </message>
        <message>
            <source>no model or tool calls</source>
            <translation>没有模型或工具调用</translation>
        </message>
        <message>
            <source>{text}; stopped: {kind}: {error}</source>
            <translation>{text}；已停止：{kind}: {error}</translation>
        </message>
    </context>
    <context>
        <name>timeline.view</name>
        <message>
            <source>No run yet: Run or Step draws its supersteps here.</source>
            <translation>尚无运行：运行或单步会在这里画出它的超步 (superstep)。</translation>
        </message>
        <message>
            <source>step {step}</source>
            <translation>第 {step} 步</translation>
        </message>
        <message>
            <source>cached</source>
            <translation>已缓存</translation>
        </message>
        <message>
            <source>superstep {step} (in {graph})</source>
            <translation>超步 (superstep) {step}（在 {graph} 中）</translation>
        </message>
        <message>
            <source>superstep {step}</source>
            <translation>超步 (superstep) {step}</translation>
        </message>
        <message>
            <source>start {start}, took {took}</source>
            <translation>开始于 {start}，用时 {took}</translation>
        </message>
        <message>
            <source>retried {count} time(s)</source>
            <translation>重试了 {count} 次</translation>
        </message>
        <message>
            <source>cache hit: read from the node's cache, not run</source>
            <translation>缓存命中：从节点的缓存读取，未运行</translation>
        </message>
        <message>
            <source>interrupted ({count})</source>
            <translation>已中断（{count}）</translation>
        </message>
        <message>
            <source>raised {error}</source>
            <translation>抛出 {error}</translation>
        </message>
        <message>
            <source>{kind} call {index}</source>
            <translation>{kind} 调用 {index}</translation>
        </message>
        <message>
            <source> tokens</source>
            <translation> 个 token</translation>
        </message>
    </context>
    <context>
        <name>trust_gate</name>
        <message>
            <source>Cannot run: {value}</source>
            <translation>无法运行：{value}</translation>
        </message>
        <message>
            <source>This spec needs trust: trust it (banner above the canvas) to run it</source>
            <translation>此规格 (spec) 需要信任：请信任它（画布上方的横幅）后再运行</translation>
        </message>
    </context>
    <context>
        <name>validation</name>
        <message>
            <source>validator failed: {error}</source>
            <translation>校验器失败：{error}</translation>
        </message>
    </context>
    <context>
        <name>window_layout</name>
        <message>
            <source>Trust and allow running</source>
            <translation>信任并允许运行</translation>
        </message>
        <message>
            <source>Recover</source>
            <translation>恢复</translation>
        </message>
        <message>
            <source>Discard</source>
            <translation>丢弃</translation>
        </message>
        <message>
            <source>Palette</source>
            <translation>组件面板</translation>
        </message>
        <message>
            <source>Inspector</source>
            <translation>检查器</translation>
        </message>
        <message>
            <source>State</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Problems</source>
            <translation>问题</translation>
        </message>
        <message>
            <source>&amp;Panels</source>
            <translation>面板(&amp;P)</translation>
        </message>
        <message>
            <source>&amp;Reset panels</source>
            <translation>重置面板(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>帮助(&amp;H)</translation>
        </message>
        <message>
            <source>&amp;Keyboard shortcuts</source>
            <translation>键盘快捷键(&amp;K)</translation>
        </message>
        <message>
            <source>&amp;About Superstep Studio</source>
            <translation>关于 Superstep Studio(&amp;A)</translation>
        </message>
        <message>
            <source>&amp;Workspace</source>
            <translation>工作区(&amp;W)</translation>
        </message>
        <message>
            <source>Workspace: where the panels are (View → Workspace)</source>
            <translation>工作区：各面板的位置（视图 → 工作区）</translation>
        </message>
    </context>
    <context>
        <name>workspaces</name>
        <message>
            <source>&amp;Design</source>
            <translation>设计(&amp;D)</translation>
        </message>
        <message>
            <source>Drawing a graph: palette, inspector and state large; problems and the trace below</source>
            <translation>绘制图：组件面板、检查器和状态较大；问题和轨迹在下方</translation>
        </message>
        <message>
            <source>De&amp;bug</source>
            <translation>调试(&amp;B)</translation>
        </message>
        <message>
            <source>Running and time travel: channels, checkpoints, trace and events large</source>
            <translation>运行与时间旅行：通道 (channel)、检查点 (checkpoint)、轨迹和事件较大</translation>
        </message>
        <message>
            <source>&amp;Teach</source>
            <translation>教学(&amp;T)</translation>
        </message>
        <message>
            <source>Showing a run: the canvas largest, channels and checkpoints beside it, the trace below; the palette closed</source>
            <translation>演示运行：画布最大，通道 (channel) 和检查点 (checkpoint) 在旁边，轨迹在下方；组件面板关闭</translation>
        </message>
    </context>
    <context>
        <name>templates</name>
        <message>
            <source>Command handoff between two agents</source>
            <translation>两个智能体 (agent) 之间的 Command 交接</translation>
        </message>
        <message>
            <source>Two agents share one conversation: the triage agent's transfer tool hands the customer over to the billing agent, which answers next. Shows how a tool can send the run to another node. Its tools are Python code: trust the graph to run it.</source>
            <translation>两个智能体 (agent) 共享一段对话：分诊智能体的转接工具把客户交给账单智能体，由它接着回答。展示工具如何把运行转到另一个节点 (node)。它的工具是 Python 代码：信任此图后才能运行。</translation>
        </message>
        <message>
            <source>Agent with human-in-the-loop</source>
            <translation>带人工介入的智能体 (agent)</translation>
        </message>
        <message>
            <source>An agent that pauses before it sends an email, so a person can approve, edit or reject the call first. Its tools are Python code: trust the graph to run it.</source>
            <translation>一个在发送邮件前暂停的智能体 (agent)，让人先批准、修改或拒绝这次调用。它的工具是 Python 代码：信任此图后才能运行。</translation>
        </message>
        <message>
            <source>Agent with call limits and PII redaction</source>
            <translation>带调用上限和 PII 脱敏的智能体 (agent)</translation>
        </message>
        <message>
            <source>An agent with two safeguards: a cap on model calls per run, and email addresses removed from the input before the model sees them. Its tools are Python code: trust the graph to run it.</source>
            <translation>一个有两道保护的智能体 (agent)：限制每次运行的模型调用次数，并在模型看到输入之前移除其中的邮件地址。它的工具是 Python 代码：信任此图后才能运行。</translation>
        </message>
        <message>
            <source>Approval interrupt</source>
            <translation>审批中断 (interrupt)</translation>
        </message>
        <message>
            <source>Writes a draft, then pauses for a person: answer true to publish it or false to reject it.</source>
            <translation>先写一份草稿，然后暂停等人处理：回答 true 发布，回答 false 拒绝。</translation>
        </message>
        <message>
            <source>Command handoff</source>
            <translation>Command 交接</translation>
        </message>
        <message>
            <source>A triage step decides while the graph runs whether billing or support takes the request, by naming the next step itself: no edge is drawn between them.</source>
            <translation>分诊步骤在图运行时自己指定下一步，决定由账单还是支持来处理请求：它们之间不画边 (edge)。</translation>
        </message>
        <message>
            <source>Loop with a counter</source>
            <translation>带计数器的循环</translation>
        </message>
        <message>
            <source>A step that loops, adding one each time, until the count reaches the limit, or stops early when the run is close to its step limit.</source>
            <translation>一个循环的步骤，每次加一，直到计数达到上限；运行接近步数上限时会提前停止。</translation>
        </message>
        <message>
            <source>Deep agent</source>
            <translation>深度智能体 (deep agent)</translation>
        </message>
        <message>
            <source>A deep agent (deepagents' create_deep_agent): it plans with a to-do list, hands research to a subagent through its task tool, and writes its report to a virtual filesystem kept in the graph state. Offline, with scripted models.</source>
            <translation>一个深度智能体 (deep agent)（deepagents 的 create_deep_agent）：它用待办清单做计划，通过 task 工具把调研交给子智能体，并把报告写入保存在图状态中的虚拟文件系统。离线运行，使用脚本模型。</translation>
        </message>
        <message>
            <source>Essay writer</source>
            <translation>作文写手</translation>
        </message>
        <message>
            <source>A two-step chain: write an essay on a topic, then score it.</source>
            <translation>两步的链：就一个主题写一篇文章，然后给它打分。</translation>
        </message>
        <message>
            <source>Parallel fan-out and join</source>
            <translation>并行扇出与汇合</translation>
        </message>
        <message>
            <source>Three searches run side by side in the same step and add their results to one list; a join waits for all three before combining them.</source>
            <translation>三个搜索在同一步中并行运行，把结果加入同一个列表；汇合 (join) 等三个都完成后再合并。</translation>
        </message>
        <message>
            <source>Flaky node with a retry policy</source>
            <translation>带重试策略的不稳定节点 (node)</translation>
        </message>
        <message>
            <source>A service call that fails twice before it answers, carried through by a retry policy that tries up to three times. Its step is Python code: trust the graph to run it.</source>
            <translation>一个先失败两次才成功的服务调用，靠最多尝试三次的重试策略完成。它的步骤是 Python 代码：信任此图后才能运行。</translation>
        </message>
        <message>
            <source>Hello world</source>
            <translation>Hello world</translation>
        </message>
        <message>
            <source>One step turns a name into a greeting: the smallest graph that runs.</source>
            <translation>一步把名字变成问候语：能运行的最小的图。</translation>
        </message>
        <message>
            <source>Lesson 1 · Every state key is a channel</source>
            <translation>第 1 课 · 每个状态键都是一个通道 (channel)</translation>
        </message>
        <message>
            <source>Two keys, two channel types: topic keeps the last value written (LastValue), notes adds every write to a list (a reducer).</source>
            <translation>两个键，两种通道 (channel) 类型：topic 保留最后写入的值（LastValue），notes 把每次写入加入列表（归约器 (reducer)）。</translation>
        </message>
        <message>
            <source>Lesson 2 · Channel versions</source>
            <translation>第 2 课 · 通道 (channel) 版本</translation>
        </message>
        <message>
            <source>Each barrier that writes a channel gives it a new version: watch count's version tick once per superstep.</source>
            <translation>每次写入通道 (channel) 的屏障 (barrier) 都会给它一个新版本：观察 count 的版本每个超步 (superstep) 递增一次。</translation>
        </message>
        <message>
            <source>Lesson 3 · Why a node fires</source>
            <translation>第 3 课 · 节点 (node) 为什么会触发</translation>
        </message>
        <message>
            <source>A node runs when one of its trigger channels has a newer version than the one it saw last time (versions_seen): the loop wakes step again and again.</source>
            <translation>当一个节点 (node) 的某个触发通道的版本比它上次见到的（versions_seen）更新时，它就会运行：循环一次又一次地唤醒 step。</translation>
        </message>
        <message>
            <source>Lesson 4 · Edges are channel writes</source>
            <translation>第 4 课 · 边 (edge) 就是通道 (channel) 写入</translation>
        </message>
        <message>
            <source>A compiled graph has no edges: a conditional edge is a router that writes to the channel branch:to:X of the node it picks, and that write wakes X in the next step.</source>
            <translation>编译后的图没有边 (edge)：条件边是一个路由器 (router)，它写入所选节点的通道 (channel) branch:to:X，这次写入在下一步唤醒 X。</translation>
        </message>
        <message>
            <source>Lesson 5 · The write barrier</source>
            <translation>第 5 课 · 写屏障 (barrier)</translation>
        </message>
        <message>
            <source>Tasks of one superstep run on the same snapshot: left's write to shared is pending until the barrier, so right, running beside it, still reads the old value.</source>
            <translation>同一个超步 (superstep) 的任务基于同一个快照运行：left 对 shared 的写入在屏障 (barrier) 之前处于待处理状态，所以与它并行的 right 读到的仍是旧值。</translation>
        </message>
        <message>
            <source>Lesson 6 · A reducer merges parallel writes</source>
            <translation>第 6 课 · 归约器 (reducer) 合并并行写入</translation>
        </message>
        <message>
            <source>Three tasks write items in the same superstep; its reducer (add) merges the three packets at the barrier into one new value.</source>
            <translation>三个任务在同一个超步 (superstep) 中写入 items；它的归约器 (reducer)（add）在屏障 (barrier) 处把三个数据包合并成一个新值。</translation>
        </message>
        <message>
            <source>Lesson 7 · A LastValue conflict</source>
            <translation>第 7 课 · LastValue 冲突</translation>
        </message>
        <message>
            <source>winner has no reducer, so its channel is a LastValue: it takes one write per superstep. Two Send tasks of vote write it in the same step, and the barrier raises InvalidUpdateError on that channel. (vote is Python code that does not declare its writes, so the validator cannot warn before the run, as it would for a declared write.)</source>
            <translation>winner 没有归约器 (reducer)，所以它的通道 (channel) 是 LastValue：每个超步 (superstep) 只接受一次写入。vote 的两个 Send 任务在同一步中写入它，屏障 (barrier) 对该通道抛出 InvalidUpdateError。（vote 是不声明写入的 Python 代码，所以校验器无法像对声明过的写入那样在运行前发出警告。）</translation>
        </message>
        <message>
            <source>Lesson 8 · Send packets</source>
            <translation>第 8 课 · Send 数据包</translation>
        </message>
        <message>
            <source>A Send router puts one packet per city into the tasks Topic; each packet becomes its own task of forecast in the next step, with the packet's payload as its input.</source>
            <translation>Send 路由器 (router) 为每个城市向任务 Topic 放入一个数据包；在下一步，每个数据包成为 forecast 的一个独立任务，以数据包的载荷作为输入。</translation>
        </message>
        <message>
            <source>Lesson 9 · Command goto</source>
            <translation>第 9 课 · Command goto</translation>
        </message>
        <message>
            <source>triage returns a Command whose goto names the next node while the graph runs: no edge is drawn, the Command writes branch:to:billing itself.</source>
            <translation>triage 返回一个 Command，它的 goto 在图运行时指定下一个节点 (node)：图上不画边 (edge)，由 Command 自己写入 branch:to:billing。</translation>
        </message>
        <message>
            <source>Lesson 10 · Interrupt and resume</source>
            <translation>第 10 课 · 中断 (interrupt) 与恢复</translation>
        </message>
        <message>
            <source>ask calls interrupt(): GraphInterrupt bubbles up and the run stops before the barrier. Answer it, and the resumed run runs ask again from its start; this time interrupt() returns the answer.</source>
            <translation>ask 调用 interrupt()：GraphInterrupt 向上冒泡，运行在屏障 (barrier) 之前停止。回答之后，恢复的运行让 ask 从头再运行一次；这次 interrupt() 返回回答。</translation>
        </message>
        <message>
            <source>Lesson 11 · A checkpoint per superstep</source>
            <translation>第 11 课 · 每个超步 (superstep) 一个检查点 (checkpoint)</translation>
        </message>
        <message>
            <source>After every barrier the run saves a checkpoint; while the next step runs, each finished task's writes are saved against it as pending writes, so a crash re-runs only the unfinished tasks.</source>
            <translation>每次屏障 (barrier) 之后运行都会保存一个检查点 (checkpoint)；下一步运行时，每个已完成任务的写入都作为待处理写入 (pending writes) 记在它上面，所以崩溃后只需重新运行未完成的任务。</translation>
        </message>
        <message>
            <source>Lesson 12 · Subgraph namespaces</source>
            <translation>第 12 课 · 子图 (subgraph) 命名空间 (namespace)</translation>
        </message>
        <message>
            <source>shout runs a graph of its own. Its supersteps and checkpoints live under a namespace named after the task (shout:&lt;task id&gt;), apart from the parent's.</source>
            <translation>shout 运行一个属于它自己的图。它的超步 (superstep) 和检查点 (checkpoint) 位于以该任务命名的命名空间 (namespace)（shout:&lt;task id&gt;）之下，与父图的分开。</translation>
        </message>
        <message>
            <source>Map-reduce with Send</source>
            <translation>用 Send 做 Map-reduce</translation>
        </message>
        <message>
            <source>Sends one joke-writing task per subject, each with its own input; the tasks run in parallel, their jokes are collected in one list and the best one is picked.</source>
            <translation>为每个主题发送一个写笑话的任务，各有自己的输入；这些任务并行运行，笑话被收集到一个列表中，再从中选出最好的一个。</translation>
        </message>
        <message>
            <source>ReAct agent</source>
            <translation>ReAct 智能体 (agent)</translation>
        </message>
        <message>
            <source>A tool-using agent: the model calls a tool, reads the result and repeats until it can answer. Its tool is Python code: trust the graph to run it.</source>
            <translation>一个使用工具的智能体 (agent)：模型调用工具、读取结果，如此反复直到能够回答。它的工具是 Python 代码：信任此图后才能运行。</translation>
        </message>
        <message>
            <source>Router</source>
            <translation>路由器 (router)</translation>
        </message>
        <message>
            <source>a doubles the total, then a rule picks the next step: b when the total is above 5, else c. Each step adds its name to the visited list.</source>
            <translation>a 把 total 翻倍，然后由一条规则选出下一步：total 大于 5 时走 b，否则走 c。每一步都把自己的名字加入 visited 列表。</translation>
        </message>
        <message>
            <source>Subgraph</source>
            <translation>子图 (subgraph)</translation>
        </message>
        <message>
            <source>A graph inside a graph: prepare the text, then a nested two-step graph turns it to capitals and adds an exclamation mark.</source>
            <translation>图中之图：先准备文本，然后一个嵌套的两步图把它转成大写并加上感叹号。</translation>
        </message>
        <message>
            <source>Ticket triage</source>
            <translation>工单分诊</translation>
        </message>
        <message>
            <source>Sorts a support ticket into billing, technical or general by its words, then the team's node sets its priority. Ships with a dataset of 12 tickets (ticket_triage.tickets.jsonl) to run as an experiment.</source>
            <translation>按用词把支持工单分到账单、技术或一般类别，然后由对应团队的节点设定优先级。附带一个含 12 张工单的数据集（ticket_triage.tickets.jsonl），可作为实验运行。</translation>
        </message>
        <message>
            <source>Time travel</source>
            <translation>时间旅行</translation>
        </message>
        <message>
            <source>Three steps that each add to a log. Rewind to any checkpoint, change the value and fork: the steps after it run again on the new value.</source>
            <translation>三个步骤，每一步都往日志里添加内容。回到任意一个检查点 (checkpoint)，修改值并分叉 (fork)：之后的步骤会基于新值重新运行。</translation>
        </message>
    </context>
</TS>
