-- wrk script: POSTs actions to sessions listed in a file, one line per request to make:
-- "<session id> <token> <action JSON>". Each thread cycles through the lines from its own
-- starting point, so several threads spread over them. A second argument "unchecked" leaves
-- the answers unread by the script (wrk still counts non-2xx answers), which spares the
-- client's CPU when the server is measured.
local lines = {}
local index = 0

function init(args)
  for line in io.lines(args[1]) do
    local id, token, body = line:match("^(%S+) (%S+) (.+)$")
    lines[#lines + 1] = wrk.format("POST", "/api/sessions/" .. id .. "/actions", {
      ["Authorization"] = "Bearer " .. token,
      ["Content-Type"] = "application/json",
    }, body)
  end
  index = math.random(#lines)
  if args[2] ~= "unchecked" then response = check end
end

function request()
  index = index % #lines + 1
  return lines[index]
end

function check(status, headers, body)
  if status ~= 202 then
    error("unexpected status " .. status .. ": " .. body)
  end
end
