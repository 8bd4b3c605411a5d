#include "demowindow.h"

#include "util/clock.h"

namespace switchyard::testing {

Demo::Demo(Probes probes)
    : pools(Clock::system())
{
    Config config = scenario.config();
    config.probe.timeoutMs = 10'000;
    pools.applyConfig(config);
    if (probes == Probes::Started)
        pools.start();
}

std::unique_ptr<StoreSession> Demo::openStore(const QString& path, QString* error)
{
    return StoreSession::open(path, &pools, Clock::system(), error);
}

DemoWindow::DemoWindow(const QString& storePath, const QString& settingsPath)
    : store(demo.openStore(storePath, &storeError))
    , settings(settingsPath)
    , window(&demo.pools, ui::ConfigSource{QString(), true}, &settings)
{
    if (store)
        window.setStore(store.get());
}

} // namespace switchyard::testing
