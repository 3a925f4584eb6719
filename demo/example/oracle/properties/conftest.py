import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
FIXTURES = ROOT / "oracle" / "fixtures"


def load_fixture(name):
    return json.loads((FIXTURES / name).read_text())
