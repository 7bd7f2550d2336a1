import BGSimCommands
import UploadKitWorkloads

BGSim.main(workloads: UploadKitWorkloads.all)
