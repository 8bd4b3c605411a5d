#include "commitment.h"

namespace switchyard::sim {

QString commitmentName(Commitment commitment)
{
    switch (commitment) {
    case Commitment::Processed:
        return QStringLiteral("processed");
    case Commitment::Confirmed:
        return QStringLiteral("confirmed");
    case Commitment::Finalized:
        return QStringLiteral("finalized");
    }
    Q_UNREACHABLE();
}

std::optional<Commitment> commitmentFromName(const QString& name)
{
    for (Commitment commitment :
         {Commitment::Processed, Commitment::Confirmed, Commitment::Finalized}) {
        if (name == commitmentName(commitment))
            return commitment;
    }
    return std::nullopt;
}

qint64 commitmentDepth(Commitment commitment)
{
    switch (commitment) {
    case Commitment::Processed:
        return 0;
    case Commitment::Confirmed:
        return 1;
    case Commitment::Finalized:
        return 32;
    }
    Q_UNREACHABLE();
}

} // namespace switchyard::sim
