#include "systempane.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "fisura/version.h"
#include "jobrunner.h"

namespace fisura::ui
{

SystemPane::SystemPane(QWidget* parent)
    : Pane(parent), job_(new JobRunner(this)), heading_(new QLabel(this)),
      explanation_(new QLabel(this)), facts_(new QTreeWidget(this))
{
    QFont f = heading_->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    f.setBold(true);
    heading_->setFont(f);
    explanation_->setWordWrap(true);
    explanation_->setObjectName(QStringLiteral("explanation"));
    facts_->setObjectName(QStringLiteral("facts"));
    facts_->setColumnCount(2);
    facts_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    facts_->setRootIsDecorated(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(explanation_);
    layout->addWidget(facts_, 1);
    retranslateUi();
}

QString SystemPane::title() const
{
    return tr("System");
}

QIcon SystemPane::icon() const
{
    return style()->standardIcon(QStyle::SP_ComputerIcon);
}

void SystemPane::refresh()
{
    auto result = std::make_shared<MachineInfo>();
    if (!job_->start([result](const CancelToken&, ProgressSink*) {
            *result = queryMachine(); // CUDA initialisation can take seconds: off the GUI thread
            return Status::ok();
        }))
        return;
    connect(
        job_, &JobRunner::finished, this, [this, result](const Status&) { setMachine(*result); },
        Qt::SingleShotConnection);
}

void SystemPane::setMachine(const MachineInfo& m)
{
    machine_ = m;
    haveMachine_ = true;
    rebuild();
    Q_EMIT machineChanged();
}

QString SystemPane::summary() const
{
    if (!haveMachine_)
        return tr("Detecting hardware…");
    if (machine_.cudaUsable && !machine_.gpus.empty())
        return QString::fromStdString(machine_.gpus.front().name);
    return tr("CPU · %n core(s)", nullptr, machine_.logicalCores);
}

void SystemPane::retranslateUi()
{
    heading_->setText(tr("This computer"));
    facts_->setHeaderLabels({tr("Item"), tr("Value")});
    rebuild();
}

void SystemPane::rebuild()
{
    facts_->clear();
    if (!haveMachine_) {
        explanation_->setText(tr("Detecting hardware…"));
        return;
    }
    const QLocale loc;
    auto gib = [&](uint64_t bytes) {
        return tr("%1 GiB").arg(loc.toString(bytes / 1073741824.0, 'f', 1));
    };
    auto add = [&](QTreeWidgetItem* parent, const QString& k, const QString& v) {
        auto* it = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(facts_);
        it->setText(0, k);
        it->setText(1, v);
        return it;
    };
    QString why;
    switch (machine_.cudaState) {
    case CudaState::Usable:
        break;
    case CudaState::NotBuilt:
        why = tr("this build of Fisura uses a LibTorch without CUDA.");
        break;
    case CudaState::NoDriver:
        why = tr("no NVIDIA driver is installed.");
        break;
    case CudaState::NoDevice:
        why = tr("the NVIDIA driver reports no usable GPU.");
        break;
    case CudaState::InitFailed:
        why = tr("the GPU could not be initialised.");
        break;
    }
    if (machine_.cudaUsable)
        explanation_->setText(tr("Fisura trains and runs models on the GPU."));
    else
        explanation_->setText(tr("No usable GPU: Fisura runs everything on the CPU, which is "
                                 "slower but gives the same results. Reason: %1")
                                  .arg(why));

    auto* cpu = add(nullptr, tr("Processor"), QString::fromStdString(machine_.cpuModel));
    add(cpu, tr("Logical cores"), QString::number(machine_.logicalCores));
    add(cpu, tr("Memory"),
        tr("%1 total, %2 available")
            .arg(gib(machine_.totalRamBytes), gib(machine_.availableRamBytes)));
    add(cpu, tr("Operating system"), QString::fromStdString(machine_.os));
    auto* libs = add(nullptr, tr("Libraries"),
                     QStringLiteral("Fisura ") + QString::fromStdString(version()));
    add(libs, QStringLiteral("LibTorch"),
        QString::fromStdString(machine_.torchVersion) + QStringLiteral(" · ") +
            (machine_.torchBuiltWithCuda ? tr("CUDA build") : tr("CPU build")));
    add(libs, QStringLiteral("OpenCV"), QString::fromStdString(opencvVersion()));
    add(libs, QStringLiteral("libtiff"), QString::fromStdString(libtiffVersion()));
    add(libs, QStringLiteral("CUDA"), QString::fromStdString(machine_.cudaStatus));
    for (const GpuInfo& g : machine_.gpus) {
        auto* gi = add(nullptr, tr("GPU %1").arg(g.index), QString::fromStdString(g.name));
        add(gi, tr("Compute capability"),
            QStringLiteral("%1.%2").arg(g.computeMajor).arg(g.computeMinor));
        add(gi, tr("Multiprocessors"), QString::number(g.multiprocessors));
        add(gi, tr("Memory"),
            tr("%1 total, %2 free").arg(gib(g.totalMemoryBytes), gib(g.freeMemoryBytes)));
    }
    facts_->expandAll();
}

} // namespace fisura::ui
