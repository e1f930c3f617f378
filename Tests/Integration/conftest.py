import sys
from pathlib import Path

# Lets test modules import the helpers next to them (storehost_server.py).
sys.path.insert(0, str(Path(__file__).parent))
