// The Python watchers are compiled only when the watch plan asks for them
// (src/reporters/python/pytest_outcomes.py `_NEEDS`): each head run compiled all of them from
// source, about 25 ms of a loaded run's start for gate_reach, gate_cover and gate_mutate
// together (issue 29). Skipping one must change nothing: every watcher named in the table
// answers None from install() when the plan lacks its key, and a plan that has the key
// still loads it.
import { describe, expect, it } from 'vitest'
import { runPythonJson } from './helpers/python.js'

const PRELUDE = `
import importlib.util, json, os, sys
import pytest_outcomes as po
loaded = []
real = importlib.util.spec_from_file_location
def spy(name, path, *a, **k):
    loaded.append(name)
    return real(name, path, *a, **k)
importlib.util.spec_from_file_location = spy
class Channel:
    def send(self, kind, **fields):
        pass
`

describe('the Python watchers, by the watch plan', () => {
  it('each watcher of the table answers None without its plan key (so skipping it changes nothing)', () => {
    const out = runPythonJson(`${PRELUDE}
answers = {}
for name, key in po._NEEDS.items():
    spec = real(name, os.path.join(po._HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    answers[name] = module.install(Channel(), {"v": 1, "lines": {}, "instrument": []}, po._COMMON)
files = sorted(f[:-3] for f in os.listdir(po._HERE) if f.startswith("gate_") and f.endswith(".py"))
print(json.dumps({"answers": answers, "files": files, "table": sorted(po._NEEDS)}))
`) as { answers: Record<string, unknown>; files: string[]; table: string[] }
    expect(out.table).toEqual(out.files)
    for (const name of out.files) expect(out.answers[name], name).toBeNull()
  })

  it('a plan without reach, coverage or mutants compiles only the runner-plugin check; one with reach adds gate_reach, never the evidence guard', () => {
    const none = runPythonJson(`${PRELUDE}
plugins = po._load_watchers(Channel(), {"v": 1, "lines": {"a.py": [[1, 2]]}, "instrument": [], "reach": False, "cover": False}, po._real_paths(os.getcwd()))
print(json.dumps({"loaded": loaded, "plugins": len(plugins)}))
`)
    // gate_plugins acts on every plan with lines: a hook a changed file registers is runner
    // configuration, whatever the plan asks (docs/instrument.md).
    expect(none).toEqual({ loaded: ['gate_plugins'], plugins: 1 })
    const reach = runPythonJson(`${PRELUDE}
plugins = po._load_watchers(Channel(), {"v": 1, "lines": {"a.py": [[1, 2]]}, "instrument": [], "reach": True, "cover": False}, po._real_paths(os.getcwd()))
print(json.dumps({"loaded": loaded, "plugins": len(plugins)}))
`)
    expect(reach).toEqual({ loaded: ['gate_plugins', 'gate_reach'], plugins: 2 })
  })
})
