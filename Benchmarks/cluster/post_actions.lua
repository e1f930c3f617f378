-- wrk script: POSTs an increment to the sessions listed in $SESSIONS_FILE ("id token" lines),
-- one after another, so every wrk connection spreads its actions over all sessions.
local sessions = {}
local next_index = 1

function init(args)
  for line in io.lines(os.getenv("SESSIONS_FILE")) do
    local id, token = line:match("(%S+) (%S+)")
    sessions[#sessions + 1] = { path = "/api/sessions/" .. id .. "/actions", token = token }
  end
  next_index = math.random(#sessions)
end

function request()
  local session = sessions[next_index]
  next_index = next_index % #sessions + 1
  return wrk.format("POST", session.path, {
    ["Authorization"] = "Bearer " .. session.token,
    ["Content-Type"] = "application/json",
  }, '{"counter":"incrementButtonTapped"}')
end

function done(summary, latency, requests)
  io.stderr:write(string.format("non-2xx %d\n", summary.errors.status))
end
