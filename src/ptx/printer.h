// IR -> PTX text that ptxas accepts and that parses back to an equal IR.
#pragma once

#include <string>

#include "ptx/ir.h"

namespace simtsync::ptx {

std::string print_module(const Module& m);
std::string print_instruction(const Function& f, const Instruction& in);  // no ';' or newline
std::string print_operand(const Function& f, const Operand& op);

}  // namespace simtsync::ptx
