#include "statusobservation.h"

namespace switchyard::chain {

QString levelWord(StatusObservation::Level level)
{
    switch (level) {
    case StatusObservation::Level::NotFound:
        return {};
    case StatusObservation::Level::Processed:
        return QStringLiteral("processed");
    case StatusObservation::Level::Confirmed:
        return QStringLiteral("confirmed");
    case StatusObservation::Level::Finalized:
        return QStringLiteral("finalized");
    }
    Q_UNREACHABLE();
}

} // namespace switchyard::chain
