//! The contractions (`cutensor.h`): `cutensorCreateContraction` (every 2.x),
//! `cutensorCreateContractionTrinary` (2.2 and later) and `cutensorCreateBlockSparseContraction`
//! (declared from 2.3; 2.2.0 exports it undeclared, so the stub refuses it there as absent).
//! Each takes the compute descriptor last; the stub translates it (`super`) and forwards the
//! rest untouched.

#![allow(non_snake_case)]

use super::with_compute_descriptor;
use crate::types::{
    cutensorBlockSparseTensorDescriptor_t, cutensorHandle_t, cutensorOperationDescriptor_t,
    cutensorOperator_t, cutensorTensorDescriptor_t,
};

with_compute_descriptor! {
    /// `cutensorStatus_t cutensorCreateContraction(const cutensorHandle_t handle,
    /// cutensorOperationDescriptor_t *desc, const cutensorTensorDescriptor_t descA,
    /// const int32_t modeA[], cutensorOperator_t opA, … descB, modeB, opB, … descC, modeC, opC,
    /// … descD, modeD, const cutensorComputeDescriptor_t descCompute)`: D = αAB + βC.
    fn cutensorCreateContraction(
        handle: cutensorHandle_t,
        desc: *mut cutensorOperationDescriptor_t,
        descA: cutensorTensorDescriptor_t,
        modeA: *const i32,
        opA: cutensorOperator_t,
        descB: cutensorTensorDescriptor_t,
        modeB: *const i32,
        opB: cutensorOperator_t,
        descC: cutensorTensorDescriptor_t,
        modeC: *const i32,
        opC: cutensorOperator_t,
        descD: cutensorTensorDescriptor_t,
        modeD: *const i32,
    )
}

with_compute_descriptor! {
    /// `cutensorStatus_t cutensorCreateContractionTrinary(handle, desc, descA, modeA, opA,
    /// descB, modeB, opB, descC, modeC, opC, descD, modeD, opD, descE, modeE,
    /// const cutensorComputeDescriptor_t descCompute)`: E = αABC + βD.
    fn cutensorCreateContractionTrinary(
        handle: cutensorHandle_t,
        desc: *mut cutensorOperationDescriptor_t,
        descA: cutensorTensorDescriptor_t,
        modeA: *const i32,
        opA: cutensorOperator_t,
        descB: cutensorTensorDescriptor_t,
        modeB: *const i32,
        opB: cutensorOperator_t,
        descC: cutensorTensorDescriptor_t,
        modeC: *const i32,
        opC: cutensorOperator_t,
        descD: cutensorTensorDescriptor_t,
        modeD: *const i32,
        opD: cutensorOperator_t,
        descE: cutensorTensorDescriptor_t,
        modeE: *const i32,
    )
}

with_compute_descriptor! {
    /// `cutensorStatus_t cutensorCreateBlockSparseContraction(handle, desc,
    /// const cutensorBlockSparseTensorDescriptor_t descA, modeA, opA, … descB, modeB, opB,
    /// … descC, modeC, opC, … descD, modeD, const cutensorComputeDescriptor_t descCompute)`
    /// (2.3 and later).
    fn cutensorCreateBlockSparseContraction(
        handle: cutensorHandle_t,
        desc: *mut cutensorOperationDescriptor_t,
        descA: cutensorBlockSparseTensorDescriptor_t,
        modeA: *const i32,
        opA: cutensorOperator_t,
        descB: cutensorBlockSparseTensorDescriptor_t,
        modeB: *const i32,
        opB: cutensorOperator_t,
        descC: cutensorBlockSparseTensorDescriptor_t,
        modeC: *const i32,
        opC: cutensorOperator_t,
        descD: cutensorBlockSparseTensorDescriptor_t,
        modeD: *const i32,
    )
}
