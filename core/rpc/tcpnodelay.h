#pragma once

namespace switchyard {

// True when every TCP connection this process opens goes out with TCP_NODELAY: the process's
// connect(2) is the one in tcpnodelay.cpp. Called where the process first asks for a network
// manager, which also links the interposer into every program that talks to nodes.
bool tcpNoDelayOnEveryConnection();

} // namespace switchyard
