"""Page throughput: events/s through POST /api/events (durable GameStore, real uno
engine) and the delay from an append to its SSE message reaching a waiting client.

    .venv/bin/python -m benchmarks.web_api
"""
import tempfile, threading, time, http.client
from werkzeug.serving import make_server
from web import create_app

tmp = tempfile.mkdtemp()
app = create_app({"DATABASE": f"{tmp}/t.sqlite3", "SSE_HEARTBEAT": 5})
c = app.test_client()
c.post("/api/games", json={"game": "uno", "players": ["A", "B", "C"]})
c.post("/api/events", json={"type": "start", "card": "red-7"})
N = 300
t0 = time.perf_counter()
for i in range(N):
    c.post("/api/events", json={"type": "uno", "player": "A"})
dt = time.perf_counter() - t0
print(f"POST /api/events (test client, durable store): {N/dt:.0f} events/s, {1000*dt/N:.2f} ms each")
t0 = time.perf_counter()
for i in range(20):
    c.put("/api/events/2", json={"type": "uno", "player": "B"})
dt = time.perf_counter() - t0
print(f"PUT /api/events/2 (correction, replay of {N+1} events): {1000*dt/20:.1f} ms each")

srv = make_server("127.0.0.1", 0, app, threaded=True)
threading.Thread(target=srv.serve_forever, daemon=True).start()
port = srv.server_port
table = app.extensions["tableref.table"]
lat = []
for i in range(30):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", f"/api/stream?last={table.seq}")
    resp = conn.getresponse()
    resp.readline(); resp.readline(); resp.readline()  # retry, comment, blank
    t0 = time.perf_counter()
    table.append({"type": "uno", "player": "C"})
    while True:
        line = resp.readline()
        if line.startswith(b"data:"):
            break
    lat.append(time.perf_counter() - t0)
    conn.close()
lat.sort()
print(f"append -> SSE message at a waiting client: median {1000*lat[len(lat)//2]:.1f} ms, max {1000*lat[-1]:.1f} ms (n={len(lat)})")
srv.shutdown()
