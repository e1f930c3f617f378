-- wrk script: POSTs "incrementButtonTapped" (Counter's action) to the sessions listed in
-- sessions.txt ("id token" per line), each thread cycling through them.
local sessions = {}
local index = 0

function init(args)
  for line in io.lines(args[1]) do
    local id, token = line:match("(%S+) (%S+)")
    sessions[#sessions + 1] = { id = id, token = token }
  end
end

function request()
  index = index % #sessions + 1
  local session = sessions[index]
  return wrk.format("POST", "/api/sessions/" .. session.id .. "/actions", {
    ["Authorization"] = "Bearer " .. session.token,
    ["Content-Type"] = "application/json",
  }, '"incrementButtonTapped"')
end

function response(status, headers, body)
  if status ~= 202 then
    error("unexpected status " .. status .. ": " .. body)
  end
end
