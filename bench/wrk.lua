-- wrk script for the bench's mixed load: cycles through the paths listed one per line in the file named by
-- WRK_PATHS, each thread starting at its own offset, and prints one JSON line when done.
local paths = {}
local counter = 0
local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(os.getenv("WRK_PATHS")) do
    if #line > 0 then table.insert(paths, line) end
  end
  counter = id * 7919
end

function request()
  counter = counter + 1
  return wrk.format("GET", paths[(counter % #paths) + 1])
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"tool":"wrk","requests":%d,"durationUs":%d,"bytes":%d,"p50us":%d,"p99us":%d,"maxUs":%d,"meanUs":%.1f,' ..
    '"errConnect":%d,"errRead":%d,"errWrite":%d,"errStatus":%d,"errTimeout":%d}\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99), latency.max,
    latency.mean, e.connect, e.read, e.write, e.status, e.timeout))
end
